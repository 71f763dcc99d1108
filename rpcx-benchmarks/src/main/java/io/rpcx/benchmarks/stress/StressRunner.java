package io.rpcx.benchmarks.stress;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.Workload;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Runs one stress run: starts {@code threads} threads, lets them go at once, and has each make
 * {@code requests} small echo calls on the shared client; the run's time is from the start signal
 * to the last call's return (thread creation is not timed). A run still going at the cell's
 * deadline is abandoned: its threads are told to stop after their current call, and the result is
 * FAILED.
 *
 * <p>Not thread-safe; one run at a time.
 */
final class StressRunner {
  private static final long REPORT_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final Consumer<String> progress;
  private boolean abandoned;

  /** {@code progress} receives a line every 5 s while a run is still going. */
  StressRunner(Consumer<String> progress) {
    this.progress = progress;
  }

  /** Whether the last {@link #run} was abandoned at its deadline (its threads may still be in a call). */
  boolean lastRunAbandoned() {
    return abandoned;
  }

  /**
   * One run of {@code threads} x {@code requests} calls on {@code client}; {@code firstOfCell} marks
   * the run to drop. Returns FAILED if any call failed or the run was still going at {@code
   * deadlineNanos} ({@link System#nanoTime()} time).
   */
  RunResult run(BenchmarkClient client, String system, int threads, int requests, int run,
      boolean firstOfCell, long deadlineNanos) throws InterruptedException {
    long[][] latencies = new long[threads][];
    AtomicInteger errors = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    AtomicReference<Throwable> firstError = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(threads);
    StopFlag stop = new StopFlag();

    for (int t = 0; t < threads; t++) {
      int index = t;
      Thread worker = new Thread(() -> {
        Workload.Call call = Workload.ECHO_16B.newCall();
        long[] mine = new long[requests];
        int ok = 0;
        ready.countDown();
        try {
          go.await();
          for (int i = 0; i < requests && !stop.stopped; i++) {
            long start = System.nanoTime();
            try {
              call.invoke(client);
              mine[ok++] = System.nanoTime() - start;
            } catch (RuntimeException e) {
              errors.incrementAndGet();
              firstError.compareAndSet(null, e);
            }
            done.incrementAndGet();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          latencies[index] = Arrays.copyOf(mine, ok);
          finished.countDown();
        }
      }, "stress-" + system + "-" + t);
      worker.setDaemon(true);
      worker.start();
    }

    ready.await();
    long start = System.nanoTime();
    go.countDown();
    abandoned = false;
    while (!finished.await(Math.min(REPORT_EVERY_NANOS, Math.max(0, deadlineNanos - System.nanoTime())),
        TimeUnit.NANOSECONDS)) {
      if (System.nanoTime() - deadlineNanos >= 0) {
        stop.stopped = true;
        abandoned = true;
        String reason = String.format("exceeded the cell's time limit (%d of %d calls done after %.1f s)",
            done.get(), (long) threads * requests, (System.nanoTime() - start) / 1e9);
        return new RunResult(system, threads, requests, run, Double.NaN, errors.get(),
            RunResult.Status.FAILED, reason, new long[0]);
      }
      progress.accept(String.format("    ... run %d: %d of %d calls done after %.0f s",
          run, done.get(), (long) threads * requests, (System.nanoTime() - start) / 1e9));
    }
    double millis = (System.nanoTime() - start) / 1e6;

    long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
    if (errors.get() > 0) {
      String reason = errors.get() + " of " + (long) threads * requests + " calls failed, first: " + firstError.get();
      return new RunResult(system, threads, requests, run, millis, errors.get(),
          RunResult.Status.FAILED, reason, all);
    }
    return new RunResult(system, threads, requests, run, millis, 0,
        firstOfCell ? RunResult.Status.DROPPED : RunResult.Status.OK, "", all);
  }

  /** Tells the workers of an abandoned run to stop after their current call. */
  private static final class StopFlag {
    volatile boolean stopped;
  }
}
