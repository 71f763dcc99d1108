package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.RemoteFailureException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RPCX's server, client and bidirectional streams calling gRPC's three streaming shapes on a
 * grpc-java server: elements in order, a failure after them with its typed exception, a slow
 * subscriber holding the server back through HTTP/2 flow control, and every way of cancelling
 * reaching the server's cancel handler.
 */
@Timeout(60)
class RpcxCallsGrpcStreamsTest {
  private static GrpcJavaLogs peerLogs;
  private static GrpcJavaServer server;
  private static RpcxClient client;
  private static InteropService interop;

  @BeforeAll
  static void start() {
    peerLogs = new GrpcJavaLogs();
    server = GrpcJavaServer.start();
    client =
        RpcxClient.builder()
            .targets(InteropService.class, server.target())
            .defaultTimeout(Duration.ofSeconds(30))
            .build();
    interop = client.create(InteropService.class);
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
    peerLogs.close();
    // A stream the client reset while the server was writing it: what grpc-java says then.
    for (String line : peerLogs.messages()) {
      assertEquals("WARNING Stream Error: Stream closed before write could take place", line);
    }
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "not within 20 s: " + what);
      Thread.sleep(5);
    }
  }

  @Test
  void aServerStreamDeliversEveryElementInOrder() throws Exception {
    List<Item> items = Received.all(interop.count(1000));
    assertEquals(1000, items.size());
    for (int i = 0; i < 1000; i++) {
      assertEquals(Item.of(i), items.get(i));
    }
    assertEquals(List.of(), Received.all(interop.count(0)));
  }

  @Test
  void aServerStreamsFailureComesAfterItsElementsAsTheServerThrewIt() throws Exception {
    Received<Item> received = Received.of(interop.countThenFail(3), Long.MAX_VALUE);
    RemoteFailureException failure = assertInstanceOf(RemoteFailureException.class, received.failure());
    assertEquals(IllegalStateException.class.getName(), failure.remoteClassName());
    assertEquals(
        "interop/countThenFail on grpc://127.0.0.1:" + server.port()
            + " threw java.lang.IllegalStateException: failed after 3",
        failure.getMessage());
    assertEquals(List.of(Item.of(0), Item.of(1), Item.of(2)), received.items);
  }

  @Test
  void aSlowSubscriberHoldsTheServerBackThroughHttp2FlowControl() throws Exception {
    long before = server.service.produced.get();
    long cancelled = count(server.service.cancelled, "chunks");
    // 256 MiB in 64 KiB chunks, of which the subscriber takes one.
    Received<byte[]> slow = Received.of(interop.chunks(64 << 10, 256L << 20), 1);
    await("the first chunk", () -> slow.items.size() == 1);
    long produced = waitUntilSteady(() -> server.service.produced.get() - before);
    // What the client reads ahead of its subscriber (its 4 MiB stream buffer) and HTTP/2's stream
    // window (1 MiB) bound it, not the 4,096 chunks of the stream.
    assertTrue(produced < 150, "the server produced " + produced + " chunks for a reader of one");
    slow.request(10);
    await("11 chunks", () -> slow.items.size() == 11);
    slow.cancel();
    awaitMore(server.service.cancelled, "chunks", cancelled, "the server's cancel handler");
  }

  /** How many times {@code queue} holds {@code name}. */
  static long count(java.util.Collection<String> queue, String name) {
    return queue.stream().filter(name::equals).count();
  }

  /** Waits until {@code queue} holds {@code name} more than {@code before} times. */
  static void awaitMore(java.util.Collection<String> queue, String name, long before, String what)
      throws InterruptedException {
    await(what, () -> count(queue, name) > before);
  }

  /** The value of {@code counter} once it has not moved for 300 ms. */
  private static long waitUntilSteady(java.util.function.LongSupplier counter)
      throws InterruptedException {
    long last = counter.getAsLong();
    long steadySince = System.nanoTime();
    while (System.nanoTime() - steadySince < TimeUnit.MILLISECONDS.toNanos(300)) {
      Thread.sleep(20);
      long now = counter.getAsLong();
      if (now != last) {
        last = now;
        steadySince = System.nanoTime();
      }
    }
    return last;
  }

  @Test
  void aLargeServerStreamFlowsThroughAtFullSpeed() throws Exception {
    List<byte[]> chunks = Received.all(interop.chunks(1 << 20, 64L << 20));
    assertEquals(64, chunks.size());
    for (byte[] chunk : chunks) {
      assertEquals(1 << 20, chunk.length);
    }
  }

  @Test
  void cancellingTheSubscriptionResetsTheStreamOnTheServer() throws Exception {
    long cancelled = count(server.service.cancelled, "count");
    Received<Item> received = Received.of(interop.count(1_000_000), 10);
    await("10 items", () -> received.items.size() == 10);
    received.cancel();
    awaitMore(server.service.cancelled, "count", cancelled, "the server's cancel handler");
  }

  @Test
  void aClientStreamSendsEveryElement() throws Exception {
    List<Integer> numbers = new ArrayList<>();
    for (int i = 1; i <= 10_000; i++) {
      numbers.add(i);
    }
    assertEquals(50_005_000L, interop.sum(Publishers.of(numbers)).get(30, TimeUnit.SECONDS));
    assertEquals(0L, interop.sum(Publishers.of(List.of())).get(30, TimeUnit.SECONDS));
    assertEquals(0L, interop.sum(Publishers.of(List.of(0, 0))).get(30, TimeUnit.SECONDS));
  }

  @Test
  void aClientStreamWithAnotherArgumentSendsItFirst() throws Exception {
    assertEquals("a,,c", interop.join(",", Publishers.of(List.of("a", "", "c"))).get(30, TimeUnit.SECONDS));
    assertEquals("", interop.join("-", Publishers.of(List.of())).get(30, TimeUnit.SECONDS));
    assertEquals("x", interop.join("", Publishers.of(List.of("x"))).get(30, TimeUnit.SECONDS));
  }

  @Test
  void largeElementsGoUpAsHttp2TakesThem() throws Exception {
    String part = "p".repeat(64 << 10);
    List<String> parts = Collections.nCopies(200, part); // 12.5 MiB
    String joined = interop.join("", Publishers.of(parts)).get(30, TimeUnit.SECONDS);
    assertEquals(200 * part.length(), joined.length());
  }

  @Test
  void aBidirectionalStreamAnswersEachElement() throws Exception {
    assertEquals(
        List.of("A", "", "HELLO \u00c9"),
        Received.all(interop.upper(Publishers.of(List.of("a", "", "hello \u00e9")))));
    assertEquals(List.of(), Received.all(interop.upper(Publishers.of(List.of()))));
  }

  @Test
  void cancellingABidirectionalStreamCancelsBothDirections() throws Exception {
    AtomicBoolean argumentCancelled = new AtomicBoolean();
    long watching = count(server.service.watching, "upper");
    long cancelled = count(server.service.cancelled, "upper");
    Received<String> received = Received.of(interop.upper(Publishers.never(argumentCancelled)), 1);
    awaitMore(server.service.watching, "upper", watching, "the server's method");
    received.cancel();
    awaitMore(server.service.cancelled, "upper", cancelled, "the server's cancel handler");
    await("the argument's cancel", argumentCancelled::get);
  }

  @Test
  void cancellingAClientStreamsFutureResetsTheStream() throws Exception {
    AtomicBoolean argumentCancelled = new AtomicBoolean();
    long watching = count(server.service.watching, "sum");
    long cancelled = count(server.service.cancelled, "sum");
    CompletableFuture<Long> sum = interop.sum(Publishers.never(argumentCancelled));
    awaitMore(server.service.watching, "sum", watching, "the server's method");
    assertTrue(sum.cancel(true));
    assertThrows(CancellationException.class, sum::join);
    awaitMore(server.service.cancelled, "sum", cancelled, "the server's cancel handler");
    await("the argument's cancel", argumentCancelled::get);
  }

  @Test
  void aStreamArgumentThatFailsCancelsTheCall() throws Exception {
    long watching = count(server.service.watching, "join");
    long cancelled = count(server.service.cancelled, "join");
    java.util.concurrent.atomic.AtomicReference<java.util.concurrent.Flow.Subscriber<? super String>>
        parts = new java.util.concurrent.atomic.AtomicReference<>();
    CompletableFuture<String> joined =
        interop.join(
            ",",
            subscriber -> {
              parts.set(subscriber);
              subscriber.onSubscribe(
                  new java.util.concurrent.Flow.Subscription() {
                    @Override
                    public void request(long n) {}

                    @Override
                    public void cancel() {}
                  });
            });
    awaitMore(server.service.watching, "join", watching, "the server's method");
    IllegalStateException broken = new IllegalStateException("no more parts");
    parts.get().onError(broken);
    java.util.concurrent.ExecutionException failed =
        assertThrows(
            java.util.concurrent.ExecutionException.class, () -> joined.get(30, TimeUnit.SECONDS));
    assertEquals(broken, failed.getCause(), "the caller gets its publisher's own failure");
    awaitMore(server.service.cancelled, "join", cancelled, "the server's cancel handler");
  }
}
