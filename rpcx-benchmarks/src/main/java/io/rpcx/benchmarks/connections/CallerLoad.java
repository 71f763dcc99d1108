package io.rpcx.benchmarks.connections;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Closed-loop load: one thread per caller (platform threads, or virtual threads on Java 21 and
 * later), each making one blocking call after another, and the calls per second completed in a
 * measured window after a warm-up. A failed call stops the run with that failure.
 */
final class CallerLoad {
  /** What the callers' threads are. */
  enum Threads {
    PLATFORM,
    VIRTUAL;

    /** An unstarted thread running {@code task}; virtual threads need Java 21 or later. */
    Thread newThread(Runnable task, String name) {
      if (this == PLATFORM) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
      }
      try {
        // Reached reflectively: this module is compiled for Java 17.
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Class<?> type = Class.forName("java.lang.Thread$Builder");
        builder = type.getMethod("name", String.class).invoke(builder, name);
        return (Thread) type.getMethod("unstarted", Runnable.class).invoke(builder, task);
      } catch (NoSuchMethodException | ClassNotFoundException e) {
        throw new IllegalStateException(
            "virtual threads need Java 21 or later; this is Java "
                + System.getProperty("java.version"), e);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot start a virtual thread", e);
      }
    }
  }

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
  static double run(
      List<Call> callers, Threads kind, Duration warmUp, Duration measured, Window window)
      throws InterruptedException {
    LongAdder completed = new LongAdder();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>(callers.size());
    for (int i = 0; i < callers.size(); i++) {
      Call call = callers.get(i);
      Thread thread =
          kind.newThread(
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
