package io.rpcx.testsuite;

import static io.rpcx.testsuite.StreamTesting.DEFAULT_WINDOW;
import static io.rpcx.testsuite.StreamTesting.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.testsuite.ChatService.Held;
import io.rpcx.testsuite.FeedService.ListPublisher;
import io.rpcx.testsuite.FeedService.Source;
import io.rpcx.testsuite.ShapesService.Shape;
import io.rpcx.testsuite.ShapesService.Values;
import io.rpcx.testsuite.StreamTesting.Pair;
import io.rpcx.testsuite.StreamTesting.Recorder;
import io.rpcx.testsuite.StreamTesting.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bidirectional streams (docs/PROTOCOL.md, section 5; docs/STREAMING.md), over TCP and
 * in-process: a method taking a {@code Flow.Publisher<T>} and returning a {@code
 * Flow.Publisher<U>} (or a {@code Stream<U>}) streams both ways at once, each direction at the pace
 * of its receiver, and ends, fails and cancels as one call.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BidiStreamTest {
  /**
   * What this class's tests may log: servers stopped with chats still open, and, depending on
   * which end of an echo learns of the client's cancel first, or whether the test's client closed
   * its connection before the server learnt of the cancel at all, the echoed stream's end as a
   * failure of the implementation (the cancellation work is to log that at DEBUG, not WARN).
   */
  private static LogCapture logs;

  @BeforeAll
  static void captureLogs() {
    logs = LogCapture.warnings("io.rpcx");
  }

  @AfterAll
  static void onlyWhatTheTestsProvoked() {
    try {
      logs.assertOnly(
          Level.WARN,
          "WARN Grace period of \\d+ ms ended with \\d+ calls still running; closing connections",
          "WARN chat/\\w+ threw io\\.rpcx\\.core\\.CancelledException: chat/\\w+ was cancelled"
              + " by the"
              + " client \\(for [^)]+\\) \\[io\\.rpcx\\.core\\.CancelledException: chat/\\w+ was"
              + " cancelled by the client\\]",
          "WARN chat/\\w+ threw io\\.rpcx\\.core\\.UnavailableException: the connection from \\S+"
              + " closed while chat/\\w+ was streaming \\(for [^)]+\\) \\[io\\.rpcx\\.core\\."
              + "UnavailableException: the connection from \\S+ closed while chat/\\w+ was"
              + " streaming\\]");
    } finally {
      logs.close();
    }
  }


  static Stream<Arguments> shapesOnTransports() {
    List<Arguments> cases = new ArrayList<>();
    for (Transport transport : Transport.values()) {
      for (Shape shape : Shape.values()) {
        cases.add(Arguments.of(transport, shape));
      }
    }
    return cases.stream();
  }

  /** Every value shape as an element, small and past the internal size thresholds, both ways. */
  @ParameterizedTest(name = "{1} over {0}")
  @MethodSource("shapesOnTransports")
  void everyShapeEchoesBothWays(Transport transport, Shape shape) throws Exception {
    try (Pair pair = new Pair(transport, new ChatService.Impl())) {
      List<Object> values = new ArrayList<>();
      for (int size : new int[] {10, 64 * 1024 + 256, 300 * 1024}) {
        values.add(Values.of(shape, size));
      }
      Recorder<Object> echoed = new Recorder<>(Long.MAX_VALUE);
      echo(pair.chat(), shape, new ListPublisher<>(values, null)).subscribe(echoed);
      echoed.awaitCompletion();
      assertEquals(values.size(), echoed.items.size());
      for (int i = 0; i < values.size(); i++) {
        Object expected = values.get(i);
        Object actual = echoed.items.get(i);
        if (expected instanceof byte[] bytes) {
          assertTrue(java.util.Arrays.equals(bytes, (byte[]) actual), "element " + i);
        } else {
          assertEquals(expected, actual, "element " + i);
        }
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Flow.Publisher<Object> echo(ChatService chat, Shape shape, Flow.Publisher values) {
    return (Flow.Publisher<Object>)
        switch (shape) {
          case CLASS -> chat.beans(values);
          case RECORD -> chat.blobs(values);
          case NESTED_RECORD -> chat.envelopes(values);
          case LIST_OF_RECORDS -> chat.blobLists(values);
          case MAP_OF_RECORDS -> chat.blobMaps(values);
          case BYTES -> chat.bytes(values);
          case STRING -> chat.strings(values);
        };
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aBlockingCallerReadsTheAnswersOfWhatItStreams(Transport transport) {
    try (Pair pair = new Pair(transport, new ChatService.Shouter());
        Stream<String> answers =
            pair.chat().shout("!", new ListPublisher<>(List.of("hi", "there"), null))) {
      assertEquals("HI!,THERE!", answers.collect(Collectors.joining(",")));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theEchoOfAnInfinitePublisherToASlowSubscriberKeepsBothWindows(Transport transport)
      throws Exception {
    try (Pair pair = new Pair(transport, new ChatService.Impl())) {
      Source infinite = new Source(true);
      AtomicLong worstAhead = new AtomicLong();
      Recorder<Long> slow =
          new Recorder<>(1) {
            @Override
            void next(Long item) {
              // Held by the client's subscriber, in flight both ways and held by the server.
              worstAhead.accumulateAndGet(infinite.emitted.get() - items.size(), Math::max);
              if (items.size() == 2000) {
                subscription.cancel();
              } else {
                subscription.request(1);
              }
            }
          };
      pair.chat().echo(ChatService.map(infinite, l -> "" + l)).subscribe(new Parsing(slow));
      assertTrue(infinite.cancelled.await(WAIT, TimeUnit.SECONDS), "the cancel reached the client's publisher");
      assertEquals(LongStream.range(0, 2000).boxed().toList(), slow.items);
      // The server's subscriber (its outbound side) asks for what the client's credit allows,
      // so at most a window each way: one at the client's receiver, one at the server's.
      assertTrue(
          worstAhead.get() <= 2 * DEFAULT_WINDOW,
          "the client's publisher ran " + worstAhead + " ahead");
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void cancellingTheAnswersCancelsBothSidesOnTheServerAndTheClientsPublisher(Transport transport)
      throws Exception {
    ChatService.Impl service = new ChatService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Source questions = new Source(false);
      Recorder<Long> answers = new Recorder<>(5);
      pair.chat().held(questions).subscribe(answers);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      Recorder<Long> onServer = new Recorder<>(5);
      held.items().subscribe(onServer);
      assertTrue(held.answers().subscribed.await(WAIT, TimeUnit.SECONDS));
      while (questions.demand() == 0) {
        Thread.onSpinWait();
      }
      questions.push(1);
      onServer.awaitItems(1);
      held.answers().push(10);
      answers.awaitItems(1);
      answers.subscription.cancel();
      assertTrue(held.answers().cancelled.await(WAIT, TimeUnit.SECONDS), "the server's publisher");
      assertTrue(questions.cancelled.await(WAIT, TimeUnit.SECONDS), "the client's publisher");
      CancelledException cancelled = assertInstanceOf(CancelledException.class, onServer.failure());
      assertEquals("chat/held was cancelled by the client", cancelled.getMessage());
      assertEquals(0, answers.terminals.get());
      assertEquals(0, pair.client.callsInFlight());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theServerCompletingItsAnswersEndsTheCallAndCancelsTheClientsPublisher(Transport transport)
      throws Exception {
    ChatService.Impl service = new ChatService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Source questions = new Source(true);
      Recorder<Long> answers = new Recorder<>(5);
      pair.chat().held(questions).subscribe(answers);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      Recorder<Long> onServer = new Recorder<>(3);
      held.items().subscribe(onServer);
      onServer.awaitItems(3);
      assertTrue(held.answers().subscribed.await(WAIT, TimeUnit.SECONDS));
      held.answers().push(1);
      held.answers().complete();
      answers.awaitCompletion();
      assertEquals(List.of(1L), answers.items);
      assertTrue(questions.cancelled.await(WAIT, TimeUnit.SECONDS));
      CancelledException ended = assertInstanceOf(CancelledException.class, onServer.failure());
      assertEquals("chat/held ended before its stream argument did", ended.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aClientPublisherFailureReachesTheSubscriberAsItselfAndTheServerAsACancel(Transport transport)
      throws Exception {
    ChatService.Impl service = new ChatService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      IllegalStateException broken = new IllegalStateException("keyboard unplugged");
      Recorder<Long> answers = new Recorder<>(5);
      pair.chat().held(new ListPublisher<>(List.of(1L), broken)).subscribe(answers);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      Recorder<Long> onServer = new Recorder<>(5);
      held.items().subscribe(onServer);
      assertSame(broken, answers.failure());
      CancelledException cancelled = assertInstanceOf(CancelledException.class, onServer.failure());
      assertEquals("chat/held was cancelled by the client: keyboard unplugged", cancelled.getMessage());
      assertTrue(held.answers().cancelled.await(WAIT, TimeUnit.SECONDS));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theDeadlineEndsBothDirections(Transport transport) throws Exception {
    ChatService.Impl service = new ChatService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Source questions = new Source(true);
      Recorder<Long> answers = new Recorder<>(1);
      pair.chat().expiring(questions).subscribe(answers);
      CallTimeoutException timedOut = assertInstanceOf(CallTimeoutException.class, answers.failure());
      assertEquals(
          "chat/expiring timed out after 300 ms waiting for " + pair.address, timedOut.getMessage());
      // On a loaded machine the call may be sent only after its deadline, or taken by a worker
      // only after it: then the client never subscribes to its publisher, or the server never runs
      // the implementation. What was subscribed to was cancelled.
      if (questions.subscribed.getCount() == 0) {
        assertTrue(questions.cancelled.await(WAIT, TimeUnit.SECONDS), "the client cancelled it");
      }
      StreamTesting.awaitNoCallInFlight(pair.server);
      if (service.expiring.subscribed.getCount() == 0) {
        assertEquals(0, service.expiring.cancelled.getCount(), "the server cancelled it");
      }
      assertEquals(0, questions.emitted.get(), "the server never subscribed: no credit");
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aLostConnectionFailsEveryOpenChatOnBothSides(Transport transport) throws Exception {
    ChatService.Impl service = new ChatService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      List<Recorder<Long>> clients = List.of(new Recorder<>(1), new Recorder<>(1));
      List<Recorder<Long>> servers = List.of(new Recorder<>(1), new Recorder<>(1));
      List<Source> questions = List.of(new Source(false), new Source(false));
      for (int i = 0; i < 2; i++) {
        pair.chat().held(questions.get(i)).subscribe(clients.get(i));
        service.held.poll(WAIT, TimeUnit.SECONDS).items().subscribe(servers.get(i));
      }
      pair.client.close();
      for (int i = 0; i < 2; i++) {
        assertInstanceOf(UnavailableException.class, clients.get(i).failure());
        assertInstanceOf(UnavailableException.class, servers.get(i).failure());
        assertTrue(questions.get(i).cancelled.await(WAIT, TimeUnit.SECONDS));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aShutdownEndsAnOpenChatUnavailableAfterTheGracePeriod(Transport transport)
      throws Exception {
    ChatService.Impl service = new ChatService.Impl();
    try (Pair pair =
        new Pair(
            transport, service, server -> server.shutdownGracePeriod(Duration.ofMillis(300)), c -> c)) {
      Recorder<Long> answers = new Recorder<>(5);
      pair.chat().held(new Source(false)).subscribe(answers);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      Recorder<Long> onServer = new Recorder<>(5);
      held.items().subscribe(onServer);
      assertTrue(held.answers().subscribed.await(WAIT, TimeUnit.SECONDS));
      pair.server.stop();
      UnavailableException ended = assertInstanceOf(UnavailableException.class, answers.failure());
      assertEquals(
          "chat/held failed on " + pair.address + ": the server is shutting down; chat/held was ended",
          ended.getMessage());
      assertInstanceOf(UnavailableException.class, onServer.failure());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void interceptorsSeeOneCallCountingBothDirections(Transport transport) throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    Semaphore ends = new Semaphore(0);
    try (Pair pair =
        new Pair(
            transport,
            new ChatService.Impl(),
            server ->
                server.intercept(
                    (call, next) ->
                        next.proceed()
                            .whenComplete(
                                (value, failure) -> {
                                  events.add("server received " + call.streamMessagesReceived()
                                      + " sent " + call.streamMessagesSent());
                                  ends.release();
                                })),
            client ->
                client.intercept(
                    new ClientInterceptor() {
                      @Override
                      public void onEnd(ClientCall call, CallResult result) {
                        events.add("client " + result.status() + " sent " + call.streamMessagesSent()
                            + " received " + call.streamMessagesReceived());
                        ends.release();
                      }
                    }))) {
      List<String> lines = IntStream.range(0, 300).mapToObj(i -> "l" + i).toList();
      Recorder<String> echoed = new Recorder<>(Long.MAX_VALUE);
      pair.chat().echo(new ListPublisher<>(lines, null)).subscribe(echoed);
      echoed.awaitCompletion();
      assertEquals(lines, echoed.items);
      assertTrue(ends.tryAcquire(2, WAIT, TimeUnit.SECONDS));
      assertEquals(
          List.of("client " + StatusCode.OK + " sent 300 received 300", "server received 300 sent 300"),
          events.stream().sorted().toList());
    }
  }

  @Test
  void aBidirectionalStreamRefusedBeforeItStartsFailsItsSubscriberAndCancelsItsPublisher()
      throws Exception {
    try (Pair pair =
        new Pair(
            Transport.TCP,
            new ChatService.Impl(),
            server ->
                server.intercept(
                    (call, next) -> {
                      throw new io.rpcx.core.UnauthenticatedException("a token is required");
                    }),
            c -> c)) {
      Source questions = new Source(true);
      Recorder<String> answers = new Recorder<>(1);
      pair.chat().echo(ChatService.map(questions, String::valueOf)).subscribe(answers);
      assertInstanceOf(io.rpcx.core.UnauthenticatedException.class, answers.failure());
      assertTrue(questions.cancelled.await(WAIT, TimeUnit.SECONDS));
      assertEquals(0, questions.emitted.get(), "refused before any credit");
    }
  }

  /** Strings back to longs, for a recorder of longs. */
  private static final class Parsing implements Flow.Subscriber<String> {
    private final Recorder<Long> target;

    Parsing(Recorder<Long> target) {
      this.target = target;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      target.onSubscribe(subscription);
    }

    @Override
    public void onNext(String item) {
      target.onNext(Long.parseLong(item));
    }

    @Override
    public void onError(Throwable throwable) {
      target.onError(throwable);
    }

    @Override
    public void onComplete() {
      target.onComplete();
    }
  }
}
