package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnauthenticatedException;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import io.rpcx.testsuite.FeedService.FeedException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import io.rpcx.testsuite.StreamTesting.Pair;
import io.rpcx.testsuite.StreamTesting.Recorder;
import io.rpcx.testsuite.StreamTesting.Transport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Server streams (docs/PROTOCOL.md, section 5; docs/STREAMING.md), over TCP and in-process: a
 * method returning {@code Flow.Publisher<T>} or {@code Stream<T>} delivers its elements with the
 * client's credit setting the pace, ends once, and fails, cancels and times out as one call.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServerStreamTest {
  /**
   * What this class's tests may log: the failures its streams provoke, and servers stopped with
   * streams still open.
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
          "WARN [\\w.]+/\\w+ threw java\\.lang\\.IllegalStateException: [^\\[]* \\(for [^)]+\\)"
              + " \\[java\\.lang\\.IllegalStateException: [^\\]]*\\]",
          "WARN Grace period of \\d+ ms ended with \\d+ calls still running; closing connections");
    } finally {
      logs.close();
    }
  }

  private static final long WAIT = StreamTesting.WAIT;
  private static final int DEFAULT_WINDOW = StreamTesting.DEFAULT_WINDOW;

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aPublisherDeliversEveryElementInOrderThenCompletes(Transport transport) throws Exception {
    try (Pair pair = new Pair(transport, new FeedService.Impl())) {
      Recorder<String> all = new Recorder<>(Long.MAX_VALUE);
      pair.feed().words(1000).subscribe(all);
      all.awaitCompletion();
      assertEquals(IntStream.range(0, 1000).mapToObj(i -> "w" + i).toList(), all.items);

      Recorder<String> none = new Recorder<>(1);
      pair.feed().words(0).subscribe(none);
      none.awaitCompletion();
      assertEquals(List.of(), none.items);
      // The unary path beside it is unchanged.
      assertEquals("still", pair.feed().echo("still"));
    }
  }

  /**
   * Sizes past every threshold of a stream's way out: messages batched into one buffer, a batch's
   * 16 KiB, staging's 64 KiB and the 256 KiB it stages at most; up and down, so that the size
   * hints are wrong both ways.
   */
  private static final List<Integer> SIZES =
      List.of(0, 10, 16_000, 20, 17_000, 70_000, 5, 300_000, 40, 1_000_000, 16_384, 3, 65_536, 1);

  @ParameterizedTest
  @EnumSource(Transport.class)
  void elementsOfEverySizeArriveInOrderAsStringsClassesAndRecords(Transport transport)
      throws Exception {
    try (Pair pair = new Pair(transport, new FeedService.Impl())) {
      Recorder<String> texts = new Recorder<>(Long.MAX_VALUE);
      pair.feed().texts(SIZES).subscribe(texts);
      texts.awaitCompletion();
      assertEquals(
          IntStream.range(0, SIZES.size())
              .mapToObj(i -> FeedService.sized(i, SIZES.get(i)))
              .toList(),
          texts.items);

      Recorder<ShapesService.Bean> beans = new Recorder<>(Long.MAX_VALUE);
      pair.feed().beans(SIZES).subscribe(beans);
      beans.awaitCompletion();
      assertEquals(SIZES.size(), beans.items.size());
      for (int i = 0; i < SIZES.size(); i++) {
        byte[] data = FeedService.sized(i, SIZES.get(i)).getBytes(StandardCharsets.US_ASCII);
        assertEquals(new ShapesService.Bean("b" + i, data, i), beans.items.get(i), "bean " + i);
      }

      Recorder<ShapesService.Blob> blobs = new Recorder<>(3); // and taken a few at a time
      pair.feed().blobs(SIZES).subscribe(blobs);
      for (int taken = 3; taken < SIZES.size(); taken += 3) {
        blobs.awaitItems(taken);
        blobs.subscription.request(3);
      }
      blobs.awaitCompletion();
      for (int i = 0; i < SIZES.size(); i++) {
        byte[] data = FeedService.sized(i, SIZES.get(i)).getBytes(StandardCharsets.US_ASCII);
        assertEquals(new ShapesService.Blob("r" + i, data, i), blobs.items.get(i), "blob " + i);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void eachSubscriberOfTheReturnedPublisherMakesItsOwnCall(Transport transport) throws Exception {
    try (Pair pair = new Pair(transport, new FeedService.Impl())) {
      Flow.Publisher<String> words = pair.feed().words(3);
      for (int i = 0; i < 2; i++) {
        Recorder<String> recorder = new Recorder<>(10);
        words.subscribe(recorder);
        recorder.awaitCompletion();
        assertEquals(List.of("w0", "w1", "w2"), recorder.items);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aBlockingCallerReadsAStreamThatTheServerReturnedAsAStream(Transport transport) {
    try (Pair pair = new Pair(transport, new FeedService.Impl());
        Stream<String> lines = pair.feed().lines(300)) {
      assertEquals(
          IntStream.range(0, 300).mapToObj(i -> "w" + i).collect(Collectors.joining(",")),
          lines.collect(Collectors.joining(",")));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void closingAStreamTheCallerStoppedReadingEarlyCancelsTheServersStream(Transport transport)
      throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      try (Stream<Long> numbers = pair.feed().numbers()) {
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), numbers.limit(5).toList());
      }
      assertTrue(service.numbersClosed.await(WAIT, TimeUnit.SECONDS), "the server closed its Stream");
      // Never more than the window (and the blocking stream's own 64) ahead of what was consumed,
      // however fast the source.
      assertTrue(
          service.numbersEmitted.get() <= 5 + 64 + DEFAULT_WINDOW,
          service.numbersEmitted + " emitted");
      try (Stream<Long> numbers = pair.feed().numbers()) {
        assertEquals(Optional.of(1L), numbers.findFirst());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aSlowSubscriberHoldsAnInfinitePublisherToTheWindow(Transport transport) throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      AtomicLong worstAhead = new AtomicLong();
      Recorder<Long> slow =
          new Recorder<>(1) {
            @Override
            void next(Long item) {
              // What the server's publisher produced and this subscriber has not consumed yet.
              long ahead = service.counting.emitted.get() - items.size();
              worstAhead.accumulateAndGet(ahead, Math::max);
              if (items.size() == 2000) {
                subscription.cancel();
              } else {
                subscription.request(1);
              }
            }
          };
      pair.feed().counting().subscribe(slow);
      assertTrue(service.counting.cancelled.await(WAIT, TimeUnit.SECONDS), "the publisher was cancelled");
      assertEquals(2000, slow.items.size());
      assertEquals(longs(2000), slow.items);
      assertTrue(
          worstAhead.get() <= DEFAULT_WINDOW,
          "the server ran " + worstAhead + " messages ahead (window " + DEFAULT_WINDOW + ")");
      assertTrue(
          service.counting.emitted.get() <= 2000 + DEFAULT_WINDOW,
          service.counting.emitted + " emitted");
      assertEquals(0, slow.terminals.get(), "a cancelled subscription is signalled nothing more");
    }
  }

  private static List<Long> longs(int count) {
    return java.util.stream.LongStream.range(0, count).boxed().toList();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aSubscriberGetsExactlyWhatItRequestsWhileTheClientReadsAheadByItsWindow(Transport transport)
      throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair = new Pair(transport, service, server -> server, c -> c.maxStreamWindow(8))) {
      Recorder<Long> three = new Recorder<>(3);
      pair.feed().counting().subscribe(three);
      three.awaitItems(3);
      // The client reads ahead of what was delivered, by its window: 3 + 8, or one less when the
      // last grant waits for a batch of 2 (a quarter of the window), and never more.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
      while (service.counting.emitted.get() < 3 + 7) {
        assertTrue(System.nanoTime() < deadline, service.counting.emitted + " emitted");
        Thread.sleep(1);
      }
      try (Stream<Long> numbers = pair.feed().numbers()) { // a round trip after any more credit
        assertEquals(Optional.of(1L), numbers.findFirst());
      }
      long emitted = service.counting.emitted.get();
      assertTrue(emitted == 3 + 7 || emitted == 3 + 8, emitted + " emitted");
      assertEquals(List.of(0L, 1L, 2L), three.items, "no element beyond the 3 requested");
      assertEquals(0, three.terminals.get());
      three.subscription.request(2);
      three.awaitItems(5);
      assertEquals(List.of(0L, 1L, 2L, 3L, 4L), three.items);
      three.subscription.cancel();
      assertTrue(service.counting.cancelled.await(WAIT, TimeUnit.SECONDS));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void cancellingCancelsThePublisherOnTheServerWithinARoundTrip(Transport transport)
      throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Recorder<Long> recorder = new Recorder<>(5);
      pair.feed().held().subscribe(recorder);
      assertTrue(service.held.subscribed.await(WAIT, TimeUnit.SECONDS));
      service.held.push(42);
      recorder.awaitItems(1);
      recorder.subscription.cancel();
      recorder.subscription.cancel(); // idempotent
      assertTrue(service.held.cancelled.await(WAIT, TimeUnit.SECONDS), "the publisher was cancelled");
      assertEquals(List.of(42L), recorder.items);
      assertEquals(0, recorder.terminals.get());
      // The connection is fine, and the stream no longer counts.
      assertEquals("after", pair.feed().echo("after"));
      assertEquals(0, pair.client.callsInFlight());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void requestingZeroIsAnErrorThatCancelsTheCall(Transport transport) throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Recorder<Long> recorder = new Recorder<>(2);
      pair.feed().held().subscribe(recorder);
      assertTrue(service.held.subscribed.await(WAIT, TimeUnit.SECONDS));
      recorder.subscription.request(0);
      Throwable failure = recorder.failure();
      assertInstanceOf(IllegalArgumentException.class, failure);
      assertEquals(
          "request(0) on the stream of feed/held: n must be positive (Reactive Streams rule 3.9)",
          failure.getMessage());
      assertTrue(service.held.cancelled.await(WAIT, TimeUnit.SECONDS));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aPublisherFailureEndsTheStreamAfterItsElementsAsTheDeclaredExceptionOrARemoteFailure(
      Transport transport) throws Exception {
    try (Pair pair = new Pair(transport, new FeedService.Impl())) {
      Recorder<String> declared = new Recorder<>(Long.MAX_VALUE);
      pair.feed().failing(3, true).subscribe(declared);
      Throwable checked = declared.failure();
      assertInstanceOf(FeedException.class, checked);
      assertEquals("no more news", checked.getMessage());
      assertEquals(List.of("w0", "w1", "w2"), declared.items);

      Recorder<String> undeclared = new Recorder<>(Long.MAX_VALUE);
      pair.feed().failing(2, false).subscribe(undeclared);
      RemoteFailureException remote = assertInstanceOf(RemoteFailureException.class, undeclared.failure());
      assertEquals(
          "feed/failing on " + pair.address + " threw java.lang.IllegalStateException: boom",
          remote.getMessage());
      assertEquals("java.lang.IllegalStateException", remote.remoteClassName());
      assertEquals(List.of("w0", "w1"), undeclared.items);

      // A blocking caller gets it from its terminal operation, after the elements before it.
      List<String> read = new ArrayList<>();
      try (Stream<String> lines = pair.feed().brokenLines(2)) {
        RemoteFailureException thrown =
            assertThrows(RemoteFailureException.class, () -> lines.forEach(read::add));
        assertEquals(
            "feed/brokenLines on " + pair.address + " threw java.lang.IllegalStateException:"
                + " no line 2",
            thrown.getMessage());
      }
      assertEquals(List.of("w0", "w1"), read);
    }
  }

  @RPCXClient(name = "feed")
  interface NewerFeed {
    Flow.Publisher<String> headlines(String topic);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void refusalsBeforeTheStreamStartsReachTheSubscriberAsTypedExceptions(Transport transport)
      throws Exception {
    try (Pair pair =
        new Pair(
            transport,
            new FeedService.Impl(),
            server ->
                server.intercept(
                    (call, next) -> {
                      if (call.method().method().equals("counting")
                          && !"secret".equals(call.metadata().get("token"))) {
                        throw new UnauthenticatedException("a token is required");
                      }
                      return next.proceed();
                    }),
            client -> client)) {
      Recorder<String> unknown = new Recorder<>(1);
      pair.client.create(NewerFeed.class).headlines("x").subscribe(unknown);
      NotFoundException notFound = assertInstanceOf(NotFoundException.class, unknown.failure());
      assertEquals(
          "feed/headlines failed on " + pair.address + ": service 'feed' has no method 'headlines'",
          notFound.getMessage());

      Recorder<Long> anonymous = new Recorder<>(1);
      pair.feed().counting().subscribe(anonymous);
      UnauthenticatedException refused =
          assertInstanceOf(UnauthenticatedException.class, anonymous.failure());
      assertEquals(
          "feed/counting failed on " + pair.address + ": a token is required", refused.getMessage());
      assertEquals(List.of(), anonymous.items);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void openStreamsCountAgainstTheCallsInFlightOfAConnection(Transport transport) throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair =
        new Pair(transport, service, server -> server.maxConcurrentCallsPerConnection(1), c -> c)) {
      Recorder<Long> open = new Recorder<>(1);
      pair.feed().held().subscribe(open);
      assertTrue(service.held.subscribed.await(WAIT, TimeUnit.SECONDS));
      Recorder<String> second = new Recorder<>(1);
      pair.feed().words(1).subscribe(second);
      ResourceExhaustedException exhausted =
          assertInstanceOf(ResourceExhaustedException.class, second.failure());
      assertEquals(
          "feed/words failed on " + pair.address + ": too many calls in flight on this connection"
              + " (limit 1); feed/words was not processed",
          exhausted.getMessage());
      service.held.complete();
      open.awaitCompletion();
      // The server gives the call's place back before it queues the stream's end: a call
      // started the moment the client reads that end is never refused.
      Recorder<String> third = new Recorder<>(1);
      pair.feed().words(1).subscribe(third);
      third.awaitCompletion();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamsOwnTimeoutBoundsTheWholeStreamOnBothSides(Transport transport) throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Recorder<Long> recorder = new Recorder<>(1);
      pair.feed().expiring().subscribe(recorder);
      CallTimeoutException timedOut = assertInstanceOf(CallTimeoutException.class, recorder.failure());
      // The same whether the client's timer or the server's STREAM_END TIMEOUT came first.
      assertEquals(
          "feed/expiring timed out after 300 ms waiting for " + pair.address, timedOut.getMessage());
      StreamTesting.awaitNoCallInFlight(pair.server);
      // A worker may take the call only after its deadline on a loaded machine: the server then
      // never runs it (see the test below). If it ran, the server cancelled its publisher.
      if (service.expiring.subscribed.getCount() == 0) {
        assertEquals(0, service.expiring.cancelled.getCount(), "the server cancelled it");
      }
    }
  }

  /**
   * On a loaded machine a worker may take the call only after its deadline: the server then never
   * runs it (nothing to cancel), and the stream still ends on both sides.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamWhoseDeadlinePassesBeforeAWorkerTakesItEndsOnBothSidesWithoutRunning(
      Transport transport) throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    ScheduledExecutorService slowWorkers = Executors.newSingleThreadScheduledExecutor();
    // Every task starts 400 ms after it was handed over: later than the call's deadline of 300 ms.
    Executor late = task -> slowWorkers.schedule(task, 400, TimeUnit.MILLISECONDS);
    try (Pair pair = new Pair(transport, service, server -> server.executor(late), c -> c)) {
      Recorder<Long> recorder = new Recorder<>(1);
      pair.feed().expiring().subscribe(recorder);
      assertInstanceOf(CallTimeoutException.class, recorder.failure());
      StreamTesting.awaitNoCallInFlight(pair.server);
      assertEquals(1, service.expiring.subscribed.getCount(), "the implementation never ran");
    } finally {
      slowWorkers.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theClientsDefaultTimeoutDoesNotApplyToAStream(Transport transport) throws Exception {
    List<Optional<Duration>> remaining = new CopyOnWriteArrayList<>();
    try (Pair pair =
        new Pair(
            transport,
            new FeedService.Impl(),
            server ->
                server.intercept(
                    (call, next) -> {
                      remaining.add(call.timeRemaining());
                      return next.proceed();
                    }),
            client -> client.defaultTimeout(Duration.ofSeconds(7)))) {
      Recorder<String> recorder = new Recorder<>(1);
      pair.feed().words(1).subscribe(recorder);
      recorder.awaitCompletion();
      pair.feed().echo("unary");
      assertEquals(2, remaining.size());
      assertEquals(Optional.empty(), remaining.get(0), "a stream without a timeout of its own");
      assertTrue(remaining.get(1).isPresent(), "the unary call has the default timeout");
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aLostConnectionFailsTheStreamOnBothSides(Transport transport) throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Recorder<Long> recorder = new Recorder<>(4);
      pair.feed().held().subscribe(recorder);
      assertTrue(service.held.subscribed.await(WAIT, TimeUnit.SECONDS));
      pair.client.close();
      UnavailableException lost = assertInstanceOf(UnavailableException.class, recorder.failure());
      assertEquals(
          "connection to " + pair.address + " closed while feed/held was in flight: the client is"
              + " closed",
          lost.getMessage());
      assertTrue(service.held.cancelled.await(WAIT, TimeUnit.SECONDS), "the server cancelled it");
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aShutdownLetsOpenStreamsGoOnWithinTheGracePeriodThenEndsThemUnavailable(
      Transport transport) throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    try (Pair pair =
        new Pair(
            transport, service, server -> server.shutdownGracePeriod(Duration.ofMillis(500)), c -> c)) {
      Recorder<Long> recorder = new Recorder<>(10);
      pair.feed().held().subscribe(recorder);
      assertTrue(service.held.subscribed.await(WAIT, TimeUnit.SECONDS));
      CompletableFuture<Void> stopping =
          CompletableFuture.runAsync(pair.server::stop, ThreadPerTask.EXECUTOR);
      while (pair.server.isRunning()) {
        Thread.onSpinWait();
      }
      service.held.push(7); // after GOAWAY: the stream goes on
      UnavailableException ended = assertInstanceOf(UnavailableException.class, recorder.failure());
      assertEquals(
          "feed/held failed on " + pair.address
              + ": the server is shutting down; feed/held was ended",
          ended.getMessage());
      assertEquals(List.of(7L), recorder.items);
      assertTrue(service.held.cancelled.await(WAIT, TimeUnit.SECONDS));
      stopping.get(WAIT, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void interceptorsOnBothSidesSeeAStreamAsOneCallThatEndsWithIt(Transport transport)
      throws Exception {
    FeedService.Impl service = new FeedService.Impl();
    List<String> serverEvents = new CopyOnWriteArrayList<>();
    List<String> clientEvents = new CopyOnWriteArrayList<>();
    java.util.concurrent.Semaphore ends = new java.util.concurrent.Semaphore(0);
    try (Pair pair =
        new Pair(
            transport,
            service,
            server ->
                server.intercept(
                    (call, next) -> {
                      serverEvents.add("start " + call.method().method());
                      return next.proceed()
                          .whenComplete(
                              (value, failure) ->
                                  serverEvents.add(
                                      "end " + call.method().method() + " after " + service.held.emitted.get()
                                          + "/" + call.streamMessagesSent()
                                          + (failure == null ? "" : " " + failure.getClass().getSimpleName())))
                          .whenComplete((value, failure) -> ends.release());
                    }),
            client ->
                client.intercept(
                    new ClientInterceptor() {
                      @Override
                      public void onStart(ClientCall call) {
                        clientEvents.add("start " + call.method().method());
                      }

                      @Override
                      public void onEnd(ClientCall call, CallResult result) {
                        clientEvents.add(
                            "end " + call.method().method() + " " + result.status() + " after "
                                + call.streamMessagesReceived());
                        ends.release();
                      }
                    }))) {
      Recorder<Long> completed = new Recorder<>(3);
      pair.feed().held().subscribe(completed);
      assertTrue(service.held.subscribed.await(WAIT, TimeUnit.SECONDS));
      assertEquals(List.of("start held"), serverEvents);
      service.held.push(1);
      service.held.push(2);
      service.held.complete();
      completed.awaitCompletion();
      assertTrue(ends.tryAcquire(2, WAIT, TimeUnit.SECONDS), "both sides saw the end");
      assertEquals(List.of("start held", "end held after 2/2"), serverEvents);
      assertEquals(List.of("start held", "end held OK after 2"), clientEvents);

      Recorder<String> cancelled = new Recorder<>(Long.MAX_VALUE);
      pair.feed().failing(5, false).subscribe(cancelled);
      RemoteFailureException failed = assertInstanceOf(RemoteFailureException.class, cancelled.failure());
      assertEquals("java.lang.IllegalStateException", failed.remoteClassName());
      assertTrue(ends.tryAcquire(2, WAIT, TimeUnit.SECONDS), "both sides saw the end");
      assertEquals("end failing " + StatusCode.REMOTE_FAILURE + " after 5", clientEvents.get(3));
    }
  }
}
