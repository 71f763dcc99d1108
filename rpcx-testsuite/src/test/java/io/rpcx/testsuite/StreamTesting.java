package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * What the stream tests share (ServerStreamTest, ClientStreamTest, BidiStreamTest): a server and a
 * client on one transport, and a subscriber that records what it gets and checks the Reactive
 * Streams rules RPCX promises, on either side.
 */
final class StreamTesting {
  /** Seconds any wait in a stream test may take. */
  static final long WAIT = 10;

  /** RPCX's default {@code maxStreamWindow}: how far a receiver reads ahead of its subscriber. */
  static final int DEFAULT_WINDOW = 1024;

  private static final AtomicInteger NAMES = new AtomicInteger();

  private StreamTesting() {}

  /**
   * Waits until {@code server} has ended every call, each with its whole outcome there (a
   * publisher it subscribed to cancelled, or a call whose deadline passed before a worker took it
   * dropped without running).
   */
  static void awaitNoCallInFlight(RpcxServer server) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
    while (server.callsInFlight() > 0) {
      assertTrue(System.nanoTime() < deadline, server.callsInFlight() + " calls still in flight");
      Thread.sleep(10);
    }
  }

  /** The transports every stream test runs on. */
  enum Transport {
    TCP,
    IN_PROCESS
  }

  /** A server and a client of one transport. */
  static final class Pair implements AutoCloseable {
    final RpcxServer server;
    final RpcxClient client;
    final String address;

    Pair(
        Transport transport,
        Object service,
        UnaryOperator<RpcxServer.Builder> serverOptions,
        UnaryOperator<RpcxClient.Builder> clientOptions) {
      RpcxServer.Builder server = RpcxServer.builder().service(service);
      RpcxClient.Builder client = RpcxClient.builder().maxAttempts(1);
      if (transport == Transport.TCP) {
        this.server = serverOptions.apply(server.bindAddress("127.0.0.1").port(0)).build().start();
        this.client = clientOptions.apply(client.target("127.0.0.1", this.server.port())).build();
        this.address = "127.0.0.1:" + this.server.port();
      } else {
        String name = "streams-" + NAMES.incrementAndGet();
        this.server = serverOptions.apply(server.inProcess(name)).build().start();
        this.client = clientOptions.apply(client.inProcess(name)).build();
        this.address = "in-process server '" + name + "'";
      }
    }

    Pair(Transport transport, Object service) {
      this(transport, service, b -> b, b -> b);
    }

    FeedService feed() {
      return client.create(FeedService.class);
    }

    UploadService uploads() {
      return client.create(UploadService.class);
    }

    ChatService chat() {
      return client.create(ChatService.class);
    }

    @Override
    public void close() {
      client.close();
      server.close();
    }
  }

  /**
   * A subscriber that records what it gets and checks the Reactive Streams rules it relies on:
   * onNext never concurrent, one terminal signal, nothing after it.
   */
  static class Recorder<T> implements Flow.Subscriber<T> {
    final List<T> items = Collections.synchronizedList(new ArrayList<>());
    final CompletableFuture<Void> done = new CompletableFuture<>();
    final AtomicInteger terminals = new AtomicInteger();
    final AtomicBoolean inSignal = new AtomicBoolean();
    final AtomicBoolean broken = new AtomicBoolean();
    private final long initialRequest;
    volatile Flow.Subscription subscription;

    Recorder(long initialRequest) {
      this.initialRequest = initialRequest;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      if (initialRequest > 0) {
        subscription.request(initialRequest);
      }
    }

    @Override
    public void onNext(T item) {
      enter();
      if (terminals.get() != 0) {
        broken.set(true);
      }
      synchronized (items) {
        items.add(item);
        items.notifyAll();
      }
      next(item);
      inSignal.set(false);
    }

    /** What a subclass does with each element. */
    void next(T item) {}

    @Override
    public void onError(Throwable throwable) {
      enter();
      terminals.incrementAndGet();
      done.completeExceptionally(throwable);
      inSignal.set(false);
    }

    @Override
    public void onComplete() {
      enter();
      terminals.incrementAndGet();
      done.complete(null);
      inSignal.set(false);
    }

    private void enter() {
      if (!inSignal.compareAndSet(false, true)) {
        broken.set(true);
      }
    }

    /** Waits until {@code count} elements have come. */
    void awaitItems(int count) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
      synchronized (items) {
        while (items.size() < count) {
          long left = deadline - System.nanoTime();
          assertTrue(left > 0, "only " + items.size() + " of " + count + " elements came");
          TimeUnit.NANOSECONDS.timedWait(items, left);
        }
      }
    }

    /** Waits for the end and returns the failure it ended with. */
    Throwable failure() throws Exception {
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> done.get(WAIT, TimeUnit.SECONDS));
      assertEquals(1, terminals.get());
      assertFalse(broken.get(), "signals were concurrent or came after the end");
      return e.getCause();
    }

    void awaitCompletion() throws Exception {
      done.get(WAIT, TimeUnit.SECONDS);
      assertEquals(1, terminals.get());
      assertFalse(broken.get(), "signals were concurrent or came after the end");
    }
  }
}
