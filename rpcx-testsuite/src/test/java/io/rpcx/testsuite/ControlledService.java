package io.rpcx.testsuite;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A service whose calls a test holds, fails and counts. */
@RPCXClient(name = "controlled", timeoutMillis = 5_000)
public interface ControlledService {

  /** Blocks until the test releases the gate (or 30 s pass), then returns {@code text}. */
  String hold(String text);

  /** Returns {@code text} after {@code millis}. */
  String sleep(String text, long millis);

  /** Completes its future when the test releases the gate. */
  CompletableFuture<String> holdAsync(String text);

  /** Throws an unchecked exception. */
  String fail(String message);

  /** Throws the declared checked exception. */
  String reject(String message) throws RejectedException;

  /** How many calls the implementation has started. */
  int started();

  /** The name of the thread running the implementation. */
  String threadName();

  /** A declared checked exception. */
  class RejectedException extends Exception {
    private static final long serialVersionUID = 1L;

    public RejectedException(String message) {
      super(message);
    }
  }

  /** The implementation, with the gate the test controls. */
  @RPCXServer(name = "controlled")
  final class Impl implements ControlledService {
    private volatile CountDownLatch gate = new CountDownLatch(1);
    private volatile CountDownLatch entered = new CountDownLatch(Integer.MAX_VALUE);
    private final AtomicInteger started = new AtomicInteger();

    /** Lets every held call (and every later one) go. */
    public void release() {
      gate.countDown();
    }

    /** Holds calls again and expects {@code calls} to arrive. */
    public void holdNext(int calls) {
      gate = new CountDownLatch(1);
      entered = new CountDownLatch(calls);
    }

    /** Waits until the expected calls are being held. */
    public boolean awaitHeld(long seconds) throws InterruptedException {
      return entered.await(seconds, TimeUnit.SECONDS);
    }

    public int startedCount() {
      return started.get();
    }

    @Override
    public String hold(String text) {
      started.incrementAndGet();
      entered.countDown();
      try {
        gate.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return text;
    }

    @Override
    public String sleep(String text, long millis) {
      started.incrementAndGet();
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return text;
    }

    @Override
    public CompletableFuture<String> holdAsync(String text) {
      started.incrementAndGet();
      entered.countDown();
      CountDownLatch current = gate;
      return CompletableFuture.supplyAsync(() -> {
        try {
          current.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return text;
      }, ThreadPerTask.EXECUTOR);
    }

    @Override
    public String fail(String message) {
      started.incrementAndGet();
      throw new IllegalStateException(message);
    }

    @Override
    public String reject(String message) throws RejectedException {
      started.incrementAndGet();
      throw new RejectedException(message);
    }

    @Override
    public int started() {
      return started.get();
    }

    @Override
    public String threadName() {
      return Thread.currentThread().getName();
    }
  }
}
