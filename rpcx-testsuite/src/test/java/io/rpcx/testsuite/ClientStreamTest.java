package io.rpcx.testsuite;

import static io.rpcx.testsuite.StreamTesting.DEFAULT_WINDOW;
import static io.rpcx.testsuite.StreamTesting.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.proto.Argument;
import io.rpcx.core.internal.protocol.proto.GoAway;
import io.rpcx.core.internal.protocol.proto.RPCXReply;
import io.rpcx.core.internal.protocol.proto.RPCXRequest;
import io.rpcx.core.internal.protocol.proto.StreamMessage;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import io.rpcx.testsuite.FeedService.ListPublisher;
import io.rpcx.testsuite.FeedService.Source;
import io.rpcx.testsuite.ShapesService.Bean;
import io.rpcx.testsuite.ShapesService.Blob;
import io.rpcx.testsuite.StreamTesting.Pair;
import io.rpcx.testsuite.StreamTesting.Recorder;
import io.rpcx.testsuite.StreamTesting.Transport;
import io.rpcx.testsuite.UploadService.Held;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Client streams (docs/PROTOCOL.md, section 5; docs/STREAMING.md), over TCP and in-process: a
 * method taking a {@code Flow.Publisher<T>} uploads its elements at the pace the server's
 * subscriber sets, returns one value, and fails, cancels and times out as one call.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClientStreamTest {
  /**
   * What this class's tests may log: the failures its uploads provoke, a request reusing an open
   * stream's id, and servers stopped with uploads still open.
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
          "WARN Grace period of \\d+ ms ended with \\d+ calls still running; closing connections",
          "WARN Closing connection (from /127\\.0\\.0\\.1|to 127\\.0\\.0\\.1):\\d+: request"
              + " \\d+ \\(uploads/held\\) reuses the id of a stream still open on this connection");
    } finally {
      logs.close();
    }
  }


  private static List<String> words(int count) {
    return IntStream.range(0, count).mapToObj(i -> "w" + i).toList();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void synchronousAndAsynchronousImplementationsTakeEveryElementThenReply(Transport transport)
      throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      UploadService uploads = pair.uploads();
      // The synchronous one blocks its worker until the stream ends; deliveries take another.
      assertEquals(1000, uploads.count("a", new ListPublisher<>(words(1000), null)));
      assertEquals(0, uploads.count("empty", new ListPublisher<>(List.of(), null)));
      assertEquals(
          1000, uploads.countAsync(new ListPublisher<>(words(1000), null)).get(WAIT, TimeUnit.SECONDS));
      assertEquals("still", uploads.echo("still"));
      assertEquals(0, pair.client.callsInFlight());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void classAndRecordElementsArriveWholeSmallAndPastEveryThreshold(Transport transport)
      throws Exception {
    try (Pair pair = new Pair(transport, new UploadService.Impl())) {
      UploadService uploads = pair.uploads();
      List<Integer> sizes = List.of(10, 64 * 1024 + 256, 300 * 1024, 1024 * 1024);
      List<Bean> beans = sizes.stream().map(ShapesService.Values::bean).toList();
      List<Blob> blobs = sizes.stream().map(ShapesService.Values::blob).toList();
      assertEquals(beans, uploads.beans(new ListPublisher<>(beans, null)).get(WAIT, TimeUnit.SECONDS));
      assertEquals(blobs, uploads.blobs(new ListPublisher<>(blobs, null)));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aServerSubscriberTakingOneAtATimeHoldsAnInfiniteClientPublisherToTheWindow(
      Transport transport) throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Source infinite = new Source(true);
      CompletableFuture<Long> result = pair.uploads().held(infinite);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      AtomicLong worstAhead = new AtomicLong();
      Recorder<Long> slow =
          new Recorder<>(1) {
            @Override
            void next(Long item) {
              // What the client's publisher produced and this subscriber has not taken yet.
              worstAhead.accumulateAndGet(infinite.emitted.get() - items.size(), Math::max);
              if (items.size() == 2000) {
                subscription.cancel();
                held.result().complete((long) items.size());
              } else {
                subscription.request(1);
              }
            }
          };
      held.items().subscribe(slow);
      assertEquals(2000, result.get(WAIT, TimeUnit.SECONDS));
      assertTrue(infinite.cancelled.await(WAIT, TimeUnit.SECONDS), "the reply cancelled the upload");
      assertEquals(LongStream.range(0, 2000).boxed().toList(), slow.items);
      assertTrue(
          worstAhead.get() <= DEFAULT_WINDOW,
          "the client ran " + worstAhead + " ahead (window " + DEFAULT_WINDOW + ")");
      assertTrue(infinite.emitted.get() <= 2000 + DEFAULT_WINDOW, infinite.emitted + " emitted");
    }
  }

  @Test
  void theServersMaxStreamWindowIsTheMostAClientHasInFlight() throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair =
        new Pair(Transport.TCP, service, server -> server.maxStreamWindow(8), client -> client)) {
      Source infinite = new Source(true);
      CompletableFuture<Long> result = pair.uploads().held(infinite);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      AtomicLong worstAhead = new AtomicLong();
      Recorder<Long> slow =
          new Recorder<>(1000) {
            @Override
            void next(Long item) {
              worstAhead.accumulateAndGet(infinite.emitted.get() - items.size(), Math::max);
              if (items.size() == 1000) {
                held.result().complete(0L);
              }
            }
          };
      held.items().subscribe(slow);
      result.get(WAIT, TimeUnit.SECONDS);
      assertTrue(worstAhead.get() <= 8, "the client ran " + worstAhead + " ahead (window 8)");
    }
  }

  @Test
  void windowOptionsAreCheckedWhenSet() {
    IllegalArgumentException window =
        assertThrows(IllegalArgumentException.class, () -> RpcxServer.builder().maxStreamWindow(0));
    assertEquals("maxStreamWindow: 0 (expected: >= 1)", window.getMessage());
    IllegalArgumentException bytes =
        assertThrows(
            IllegalArgumentException.class,
            () -> io.rpcx.client.RpcxClient.builder().maxStreamBufferedBytes(-1));
    assertEquals("maxStreamBufferedBytes: -1 (expected: >= 1)", bytes.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theServerEndingTheCallCancelsTheClientsPublisherAndItsOwnSubscriberHearsWhy(
      Transport transport) throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      // A synchronous implementation that returns after three elements.
      Source infinite = new Source(true);
      assertEquals(0 + 1 + 2, pair.uploads().firstThree(infinite));
      assertTrue(infinite.cancelled.await(WAIT, TimeUnit.SECONDS));

      Source open = new Source(false);
      CompletableFuture<Long> result = pair.uploads().held(open);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      Recorder<Long> recorder = new Recorder<>(5);
      held.items().subscribe(recorder);
      held.result().complete(7L);
      assertEquals(7, result.get(WAIT, TimeUnit.SECONDS));
      assertTrue(open.cancelled.await(WAIT, TimeUnit.SECONDS), "the upload was cancelled");
      CancelledException ended = assertInstanceOf(CancelledException.class, recorder.failure());
      assertEquals("uploads/held ended before its stream argument did", ended.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aCallerGivingUpCancelsTheServersSideWithinARoundTrip(Transport transport) throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Source open = new Source(false);
      CompletableFuture<Long> blocked = new CompletableFuture<>();
      Thread caller =
          new Thread(
              () -> {
                try {
                  blocked.complete(pair.uploads().count("interrupted", new MappedLongs(open)));
                } catch (Throwable t) {
                  blocked.completeExceptionally(t);
                }
              });
      caller.start();
      // Wait until the synchronous implementation took the first element, then give up.
      while (open.demand() == 0) {
        Thread.onSpinWait();
      }
      open.push(1);
      caller.interrupt();
      ExecutionException failed =
          assertThrows(ExecutionException.class, () -> blocked.get(WAIT, TimeUnit.SECONDS));
      assertInstanceOf(CancelledException.class, failed.getCause());
      assertTrue(open.cancelled.await(WAIT, TimeUnit.SECONDS), "the upload was cancelled");
      CancelledException onServer =
          assertInstanceOf(CancelledException.class, service.countOutcomes.poll(WAIT, TimeUnit.SECONDS));
      assertEquals(
          "uploads/count was cancelled by the client: the calling thread was interrupted",
          onServer.getMessage());
      assertEquals("after", pair.uploads().echo("after"));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aPublisherFailureFailsTheCallWithItselfAndTellsTheServer(Transport transport)
      throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      IOException diskGone = new IOException("disk gone");
      CompletableFuture<Long> result =
          pair.uploads().held(new ListPublisher<>(List.of(1L, 2L), diskGone));
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      Recorder<Long> recorder = new Recorder<>(10);
      held.items().subscribe(recorder);
      ExecutionException failed =
          assertThrows(ExecutionException.class, () -> result.get(WAIT, TimeUnit.SECONDS));
      assertSame(diskGone, failed.getCause());
      CancelledException onServer = assertInstanceOf(CancelledException.class, recorder.failure());
      assertEquals("uploads/held was cancelled by the client: disk gone", onServer.getMessage());
      // The cancel ends the server's side at once: elements it held and had not delivered go.
      assertEquals(List.of(1L, 2L).subList(0, recorder.items.size()), recorder.items);
      // A blocking caller gets it thrown as it is.
      IllegalStateException broken = new IllegalStateException("no more words");
      assertSame(
          broken,
          assertThrows(
              IllegalStateException.class,
              () -> pair.uploads().count("x", new ListPublisher<>(words(3), broken))));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void anImplementationFailureReachesTheCallerAndCancelsItsPublisher(Transport transport)
      throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Source open = new Source(true);
      CompletableFuture<Long> result = pair.uploads().held(open);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      held.result().completeExceptionally(new IllegalStateException("no room"));
      ExecutionException failed =
          assertThrows(ExecutionException.class, () -> result.get(WAIT, TimeUnit.SECONDS));
      RemoteFailureException remote = assertInstanceOf(RemoteFailureException.class, failed.getCause());
      assertEquals(
          "uploads/held on " + pair.address + " threw java.lang.IllegalStateException: no room",
          remote.getMessage());
      assertTrue(open.cancelled.await(WAIT, TimeUnit.SECONDS));
    }
  }

  @Test
  void aPublisherEmittingMoreThanRequestedFailsTheCall() throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = // a window of 1: the server's credit, and so the demand, is exactly 1
        new Pair(Transport.TCP, service, server -> server.maxStreamWindow(1), client -> client)) {
      Source pushy = new Source(false);
      CompletableFuture<Long> result = pair.uploads().held(pushy);
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS);
      CountDownLatch taken = new CountDownLatch(1);
      Recorder<Long> recorder =
          new Recorder<>(1) {
            @Override
            void next(Long item) {
              // Holding the first element holds the server's credit (the window) at 1.
              try {
                taken.await(WAIT, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          };
      held.items().subscribe(recorder);
      while (pushy.demand() == 0) {
        Thread.onSpinWait();
      }
      pushy.push(1);
      pushy.push(2); // not requested
      ExecutionException failed =
          assertThrows(ExecutionException.class, () -> result.get(WAIT, TimeUnit.SECONDS));
      IllegalStateException broken = assertInstanceOf(IllegalStateException.class, failed.getCause());
      assertEquals(
          "the stream argument of uploads/held emitted more elements than requested (1)",
          broken.getMessage());
      taken.countDown();
      assertTrue(pushy.cancelled.await(WAIT, TimeUnit.SECONDS));
      assertInstanceOf(CancelledException.class, recorder.failure());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aServerThatNeverSubscribesLeavesTheClientWaitingUntilTheDeadline(Transport transport)
      throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair =
        new Pair(transport, service, s -> s, client -> client.defaultTimeout(Duration.ofMillis(50)))) {
      Source waiting = new Source(true);
      CompletableFuture<Long> result = pair.uploads().ignoring(waiting);
      ExecutionException failed =
          assertThrows(ExecutionException.class, () -> result.get(WAIT, TimeUnit.SECONDS));
      CallTimeoutException timedOut = assertInstanceOf(CallTimeoutException.class, failed.getCause());
      // Its own 300 ms, not the client's default of 50 ms: the client's timer, or the server's
      // (sent the time left, a few ms less), whichever fires first.
      String message = timedOut.getMessage();
      assertTrue(
          message.equals("uploads/ignoring timed out after 300 ms waiting for " + pair.address)
              || message.matches(
                  "\\Quploads/ignoring failed on " + pair.address + ": uploads/ignoring timed out:"
                      + " the stream's deadline of \\E(2[5-9]\\d|300) ms passed"),
          message);
      assertEquals(0, waiting.emitted.get(), "no credit, no element");
      assertTrue(waiting.cancelled.await(WAIT, TimeUnit.SECONDS));
      // The server's subscriber, had it come late, hears that the call is over. (On a loaded
      // machine a worker may take the call only after its deadline: the server never runs it.)
      StreamTesting.awaitNoCallInFlight(pair.server);
      if (!service.ignored.isDone()) {
        return;
      }
      Recorder<Long> late = new Recorder<>(1);
      service.ignored.get().subscribe(late);
      Throwable over = late.failure(); // the server's timer or the client's cancel, whichever first
      assertTrue(
          over instanceof CallTimeoutException || over instanceof CancelledException, over.toString());
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aLostConnectionFailsEveryOpenStreamOnBothSidesAtOnce(Transport transport) throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(transport, service)) {
      Source first = new Source(false);
      Source second = new Source(false);
      CompletableFuture<Long> one = pair.uploads().held(first);
      CompletableFuture<Long> two = pair.uploads().held(second);
      Recorder<Long> serverOne = new Recorder<>(1);
      Recorder<Long> serverTwo = new Recorder<>(1);
      service.held.poll(WAIT, TimeUnit.SECONDS).items().subscribe(serverOne);
      service.held.poll(WAIT, TimeUnit.SECONDS).items().subscribe(serverTwo);
      pair.client.close();
      for (CompletableFuture<Long> result : List.of(one, two)) {
        ExecutionException failed =
            assertThrows(ExecutionException.class, () -> result.get(WAIT, TimeUnit.SECONDS));
        assertInstanceOf(UnavailableException.class, failed.getCause());
      }
      assertInstanceOf(UnavailableException.class, serverOne.failure());
      assertInstanceOf(UnavailableException.class, serverTwo.failure());
      assertTrue(first.cancelled.await(WAIT, TimeUnit.SECONDS));
      assertTrue(second.cancelled.await(WAIT, TimeUnit.SECONDS));
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aShutdownLetsAnUploadGoOnWithinTheGracePeriodThenEndsItUnavailable(Transport transport)
      throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair =
        new Pair(
            transport, service, server -> server.shutdownGracePeriod(Duration.ofMillis(500)), c -> c)) {
      Source open = new Source(false);
      CompletableFuture<Long> result = pair.uploads().held(open);
      Recorder<Long> recorder = new Recorder<>(5);
      service.held.poll(WAIT, TimeUnit.SECONDS).items().subscribe(recorder);
      CompletableFuture<Void> stopping =
          CompletableFuture.runAsync(pair.server::stop, ThreadPerTask.EXECUTOR);
      while (pair.server.isRunning() || open.demand() == 0) {
        Thread.onSpinWait();
      }
      open.push(7); // after GOAWAY: the upload goes on
      recorder.awaitItems(1);
      ExecutionException failed =
          assertThrows(ExecutionException.class, () -> result.get(WAIT, TimeUnit.SECONDS));
      UnavailableException ended = assertInstanceOf(UnavailableException.class, failed.getCause());
      assertEquals(
          "uploads/held failed on " + pair.address
              + ": the server is shutting down; uploads/held was ended",
          ended.getMessage());
      assertInstanceOf(UnavailableException.class, recorder.failure());
      assertTrue(open.cancelled.await(WAIT, TimeUnit.SECONDS));
      stopping.get(WAIT, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void interceptorsOnBothSidesSeeOneCallWithTheMessagesCounted(Transport transport)
      throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    java.util.concurrent.Semaphore ends = new java.util.concurrent.Semaphore(0);
    try (Pair pair =
        new Pair(
            transport,
            new UploadService.Impl(),
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
      assertEquals(1000, pair.uploads().countAsync(new ListPublisher<>(words(1000), null)).get());
      assertTrue(ends.tryAcquire(2, WAIT, TimeUnit.SECONDS));
      assertEquals(
          List.of("client " + StatusCode.OK + " sent 1000 received 0", "server received 1000 sent 0"),
          events.stream().sorted().toList());
    }
  }

  @Test
  void aClientSendingBeyondItsCreditEndsItsCallAndNothingElse() throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(Transport.TCP, service);
        RawConnection raw = new RawConnection(pair.server.port()).handshake()) {
      raw.sendFrame(FrameType.REQUEST, streamRequest(5, "held").toByteArray());
      Held held = service.held.poll(WAIT, TimeUnit.SECONDS); // no subscriber: no credit
      raw.sendFrame(FrameType.STREAM_MESSAGE, message(5, 1).toByteArray());
      RawConnection.Frame reply = raw.readFrame();
      assertEquals(FrameType.REPLY, reply.type);
      RPCXReply answer = RPCXReply.parseFrom(reply.payload);
      assertEquals(5, answer.getRequestId());
      assertEquals(io.rpcx.core.internal.protocol.proto.StatusCode.RESOURCE_EXHAUSTED, answer.getError().getCode());
      assertEquals(
          "the client sent 1 messages on a window of 0 on the stream argument of uploads/held",
          answer.getError().getMessage());
      Recorder<Long> late = new Recorder<>(1);
      held.items().subscribe(late);
      assertInstanceOf(io.rpcx.core.ResourceExhaustedException.class, late.failure());
      // Later frames of that stream are dropped; the connection and the others go on.
      raw.sendFrame(FrameType.STREAM_MESSAGE, message(5, 2).toByteArray());
      raw.sendFrame(FrameType.STREAM_END, new byte[] {8, 5});
      raw.sendFrame(FrameType.PING, new byte[8]);
      assertEquals(FrameType.PONG, raw.readFrame().type);
      assertEquals("unharmed", pair.uploads().echo("unharmed"));
    }
  }

  @Test
  void aRequestReusingTheIdOfAnOpenStreamClosesTheConnectionAndEndsThatStream() throws Exception {
    UploadService.Impl service = new UploadService.Impl();
    try (Pair pair = new Pair(Transport.TCP, service);
        RawConnection raw = new RawConnection(pair.server.port()).handshake()) {
      raw.sendFrame(FrameType.REQUEST, streamRequest(5, "held").toByteArray());
      Held first = service.held.poll(WAIT, TimeUnit.SECONDS);
      raw.sendFrame(FrameType.REQUEST, streamRequest(5, "held").toByteArray());
      RawConnection.Frame frame = raw.readFrame();
      assertEquals(FrameType.GOAWAY, frame.type);
      GoAway goAway = GoAway.parseFrom(frame.payload);
      assertEquals(io.rpcx.core.internal.protocol.proto.StatusCode.BAD_REQUEST, goAway.getCode());
      assertEquals(
          "request 5 (uploads/held) reuses the id of a stream still open on this connection",
          goAway.getMessage());
      assertTrue(raw.closedByServer());
      // The stream that had the id ends with the connection, as any open stream does: it is not
      // left running, unreachable, on a server that forgot it.
      Recorder<Long> items = new Recorder<>(1);
      first.items().subscribe(items);
      assertInstanceOf(UnavailableException.class, items.failure());
      assertEquals(0, service.held.size(), "the second request never ran");
      assertEquals("unharmed", pair.uploads().echo("unharmed"));
    }
  }

  /** A request for {@code uploads/method} whose one argument is a stream of int64. */
  private static RPCXRequest streamRequest(int id, String method) {
    return RPCXRequest.newBuilder()
        .setRequestId(id)
        .setService("uploads")
        .setMethod(method)
        .addArguments(Argument.newBuilder().setType("stream<int64>"))
        .build();
  }

  /** A {@code STREAM_MESSAGE} of stream {@code id} carrying the int64 {@code value}. */
  private static StreamMessage message(int id, long value) {
    return StreamMessage.newBuilder()
        .setStreamId(id)
        .setValue(com.google.protobuf.Int64Value.of(value).toByteString())
        .build();
  }

  /** The elements of a Source, as Strings for {@link UploadService#count}. */
  private static final class MappedLongs implements java.util.concurrent.Flow.Publisher<String> {
    private final Source source;

    MappedLongs(Source source) {
      this.source = source;
    }

    @Override
    public void subscribe(java.util.concurrent.Flow.Subscriber<? super String> subscriber) {
      ChatService.map(source, String::valueOf).subscribe(subscriber);
    }
  }
}
