package io.rpcx.benchmarks.connections;

import io.rpcx.annotation.RPCXServer;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server side of {@link ConnectionCostService}. Calls of {@link #hold} and {@link #block} wait
 * while the gate is closed ({@link #close()}) and finish once it opens ({@link #open()}); while it
 * is open they return at once. It starts closed. Thread-safe.
 */
@RPCXServer(name = "conncost")
public final class ConnectionCostServiceImpl implements ConnectionCostService {
  private final Queue<Held> held = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private volatile CountDownLatch gate = new CountDownLatch(1);

  @Override
  public String echo(String text) {
    return text;
  }

  @Override
  public CompletableFuture<String> hold(String text) {
    CountDownLatch current = gate;
    if (current.getCount() == 0) {
      return CompletableFuture.completedFuture(text);
    }
    CompletableFuture<String> reply = new CompletableFuture<>();
    waiting.incrementAndGet();
    held.add(new Held(reply, text));
    if (current.getCount() == 0) {
      completeHeld(); // opened meanwhile: the opener may have missed this one
    }
    return reply;
  }

  @Override
  public String block(String text) {
    waiting.incrementAndGet();
    try {
      gate.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while blocked", e);
    } finally {
      waiting.decrementAndGet();
    }
    return text;
  }

  /** Calls of {@link #hold} and {@link #block} that are waiting for the gate now. */
  public int waiting() {
    return waiting.get();
  }

  /** Opens the gate: every waiting call finishes, later ones return at once. */
  public void open() {
    gate.countDown();
    completeHeld();
  }

  /** Closes the gate: calls from now on wait until it opens. */
  public void close() {
    if (gate.getCount() == 0) {
      gate = new CountDownLatch(1);
    }
  }

  private void completeHeld() {
    Held call;
    while ((call = held.poll()) != null) {
      waiting.decrementAndGet();
      call.reply.complete(call.text);
    }
  }

  private record Held(CompletableFuture<String> reply, String text) {}
}
