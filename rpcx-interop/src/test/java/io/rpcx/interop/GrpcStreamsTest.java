package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import interop.InteropGrpc;
import interop.InteropOuterClass.ChunksReply;
import interop.InteropOuterClass.ChunksRequest;
import interop.InteropOuterClass.CountReply;
import interop.InteropOuterClass.CountRequest;
import interop.InteropOuterClass.CountThenFailRequest;
import interop.InteropOuterClass.EchoBytesRequest;
import interop.InteropOuterClass.EchoRequest;
import interop.InteropOuterClass.JoinReply;
import interop.InteropOuterClass.JoinRequest;
import interop.InteropOuterClass.StallReply;
import interop.InteropOuterClass.StallRequest;
import interop.InteropOuterClass.SumReply;
import interop.InteropOuterClass.SumRequest;
import interop.InteropOuterClass.UpperReply;
import interop.InteropOuterClass.UpperRequest;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.rpcx.internal.testing.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RPCX's server, client and bidirectional streams as gRPC's three streaming shapes, called from
 * grpc-java's generated stubs: elements in order, failures mid-stream with their status, and a
 * reader's cancel reaching the implementation's publisher.
 */
@Timeout(60)
class GrpcStreamsTest {
  private static final InteropServiceImpl implementation = new InteropServiceImpl();
  private static GrpcPeer peer;
  private static InteropGrpc.InteropBlockingStub blocking;
  private static InteropGrpc.InteropStub async;

  @BeforeAll
  static void start() {
    peer = GrpcPeer.start(InteropServer.builder(0, implementation));
    blocking = InteropGrpc.newBlockingStub(peer.channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    async = InteropGrpc.newStub(peer.channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    peer.close();
  }

  @Test
  void aServerStreamSendsEveryElementInOrder() {
    Iterator<CountReply> replies = blocking.count(CountRequest.newBuilder().setCount(1000).build());
    for (int i = 0; i < 1000; i++) {
      CountReply reply = replies.next();
      assertEquals(i, reply.getValue().getId());
      assertEquals("item-" + i, reply.getValue().getName());
      assertEquals(i % 2 == 0 ? "PLAIN" : "SPECIAL", reply.getValue().getKind());
    }
    assertFalse(replies.hasNext());
    assertFalse(blocking.count(CountRequest.newBuilder().setCount(0).build()).hasNext());
  }

  @Test
  void aServerStreamThatFailsEndsWithItsStatusAfterItsElements() throws Exception {
    StatusRuntimeException failed;
    try (LogCapture log = LogCapture.of("io.rpcx.server")) {
      Iterator<?> replies =
          blocking.countThenFail(CountThenFailRequest.newBuilder().setCount(3).build());
      for (int i = 0; i < 3; i++) {
        replies.next();
      }
      failed = assertThrows(StatusRuntimeException.class, replies::hasNext);
      await(
          () -> !log.warningsContaining("interop/countThenFail threw java.lang.IllegalStateException").isEmpty(),
          "the failure is logged");
    }
    assertEquals(Status.Code.UNKNOWN, failed.getStatus().getCode());
    assertEquals("failed after 3", failed.getStatus().getDescription());
    assertEquals(
        IllegalStateException.class.getName(),
        failed.getTrailers().get(GrpcCallSemanticsTest.EXCEPTION_CLASS));
  }

  @Test
  void aClientStreamIsSummedOnceItEnds() throws Exception {
    Reply<SumReply> sum = new Reply<>();
    StreamObserver<SumRequest> numbers = async.sum(sum);
    for (int i = 1; i <= 1000; i++) {
      numbers.onNext(SumRequest.newBuilder().setNumbers(i).build());
    }
    numbers.onCompleted();
    assertEquals(500_500, sum.get().getValue());

    Reply<SumReply> empty = new Reply<>();
    async.sum(empty).onCompleted();
    assertEquals(0, empty.get().getValue());
  }

  @Test
  void aClientStreamWithAnotherArgumentTakesItFromTheFirstMessage() throws Exception {
    Reply<JoinReply> joined = new Reply<>();
    StreamObserver<JoinRequest> parts = async.join(joined);
    parts.onNext(JoinRequest.newBuilder().setSeparator(", ").build());
    for (String part : new String[] {"a", "", "c"}) {
      parts.onNext(JoinRequest.newBuilder().setParts(part).build());
    }
    parts.onCompleted();
    assertEquals("a, , c", joined.get().getValue());
  }

  @Test
  void aStreamElementInTheFirstMessageIsRefusedNamingTheLayout() {
    Reply<JoinReply> joined = new Reply<>();
    StreamObserver<JoinRequest> parts = async.join(joined);
    parts.onNext(JoinRequest.newBuilder().setSeparator(",").setParts("a").build());
    parts.onCompleted();
    StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, joined::get);
    assertEquals(Status.Code.INVALID_ARGUMENT, refused.getStatus().getCode());
    assertTrue(
        refused.getStatus().getDescription().contains("the first message holds the other arguments"),
        refused.getStatus().getDescription());
  }

  @Test
  void aBidirectionalStreamAnswersEachMessageBeforeTheNextIsSent() throws Exception {
    BlockingQueue<Object> received = new LinkedBlockingQueue<>();
    StreamObserver<UpperRequest> texts =
        async.upper(
            new StreamObserver<UpperReply>() {
              @Override
              public void onNext(UpperReply reply) {
                received.add(reply.getValue());
              }

              @Override
              public void onError(Throwable failure) {
                received.add(failure);
              }

              @Override
              public void onCompleted() {
                received.add("completed");
              }
            });
    for (String text : new String[] {"one", "two", "three"}) {
      texts.onNext(UpperRequest.newBuilder().setTexts(text).build());
      assertEquals(text.toUpperCase(), received.poll(10, TimeUnit.SECONDS)); // before the next
    }
    texts.onCompleted();
    assertEquals("completed", received.poll(10, TimeUnit.SECONDS));
  }

  @Test
  void aReaderThatCancelsCancelsTheImplementationsPublisher() throws Exception {
    int cancelledBefore = implementation.cancelledStreams();
    Context.CancellableContext context = Context.current().withCancellation();
    List<ChunksReply> read = new ArrayList<>();
    context.run(
        () -> {
          Iterator<ChunksReply> chunks =
              blocking.chunks(ChunksRequest.newBuilder().setChunkSize(1024).setTotal(1L << 40).build());
          for (int i = 0; i < 10; i++) {
            read.add(chunks.next());
          }
        });
    context.cancel(null);
    assertEquals(10, read.size());
    await(() -> implementation.cancelledStreams() == cancelledBefore + 1, "the publisher is cancelled");
    await(() -> peer.server.stats().callsInFlight() == 0, "no call is left in flight");
    assertEquals("after", blocking.echo(EchoRequest.newBuilder().setText("after").build()).getValue());
  }

  @Test
  void aStalledSubscriberHoldsOnlyItsOwnStreamsWindowNotTheConnections() throws Exception {
    Context.CancellableContext stalled = Context.current().withCancellation();
    try {
      Reply<StallReply> never = new Reply<>();
      StreamObserver<StallRequest> chunks = stalled.call(() -> async.stall(never));
      ByteString chunk = ByteString.copyFrom(new byte[64 * 1024]);
      for (int i = 0; i < 32; i++) { // 2 MiB: past the stream's 1 MiB window, held by HTTP/2
        chunks.onNext(StallRequest.newBuilder().setChunks(chunk).build());
      }
      // Other calls on the same connection still move megabytes.
      ByteString large = ByteString.copyFrom(new byte[(1 << 20) + 1]);
      for (int i = 0; i < 4; i++) {
        assertEquals(
            large.size(),
            blocking.echoBytes(EchoBytesRequest.newBuilder().setData(large).build()).getValue().size());
      }
    } finally {
      stalled.cancel(null);
    }
  }

  static void await(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(10);
    }
  }

  /** The single reply of a client-streaming call. */
  static final class Reply<T> implements StreamObserver<T> {
    private final CompletableFuture<T> reply = new CompletableFuture<>();

    @Override
    public void onNext(T value) {
      reply.complete(value);
    }

    @Override
    public void onError(Throwable failure) {
      reply.completeExceptionally(failure);
    }

    @Override
    public void onCompleted() {
      reply.complete(null);
    }

    T get() throws Exception {
      try {
        return reply.get(20, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof StatusRuntimeException failure) {
          throw failure;
        }
        throw e;
      }
    }
  }
}
