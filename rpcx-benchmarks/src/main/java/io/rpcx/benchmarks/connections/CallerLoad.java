package io.rpcx.benchmarks.connections;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Closed-loop load: one platform thread per caller, each making one blocking call after another,
 * and the calls per second completed in a measured window after a warm-up. A failed call stops the
 * run with that failure.
 */
final class CallerLoad {
  /** One blocking call, checked by the caller. */
  @FunctionalInterface
  interface Call {
    void call() throws Exception;
  }

  /** Told when the measured window opens and closes (to profile just that window). */
  interface Window {
    Window NONE = new Window() {};

    default void opened() {}

    default void closed() {}
  }

  private CallerLoad() {}

  /**
   * Runs every call of {@code callers} on a thread of its own; returns calls per second in the
   * measured window, which {@code window} is told about.
   */
  static double run(List<Call> callers, Duration warmUp, Duration measured, Window window)
      throws InterruptedException {
    LongAdder completed = new LongAdder();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>(callers.size());
    for (int i = 0; i < callers.size(); i++) {
      Call call = callers.get(i);
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  while (!stop.get() && failure.get() == null) {
                    call.call();
                    completed.increment();
                  }
                } catch (Throwable t) {
                  failure.compareAndSet(null, t);
                }
              },
              "caller-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    start.countDown();
    Thread.sleep(warmUp.toMillis()); // a measurement window, not a wait for a condition
    window.opened();
    long before = completed.sum();
    long t0 = System.nanoTime();
    Thread.sleep(measured.toMillis());
    long after = completed.sum();
    long t1 = System.nanoTime();
    window.closed();
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    Throwable failed = failure.get();
    if (failed != null) {
      throw new IllegalStateException("a call failed: " + failed, failed);
    }
    return (after - before) * 1e9 / (t1 - t0);
  }
}
