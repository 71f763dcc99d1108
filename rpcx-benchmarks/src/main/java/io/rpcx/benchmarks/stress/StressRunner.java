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

  /**
   * Whether the last {@link #run} was abandoned at its deadline (its threads may still be in a
   * call).
   */
  boolean lastRunAbandoned() {
    return abandoned;
  }

  /**
   * One run of {@code threads} x {@code requests} calls on {@code client}; {@code firstOfCell}
   * marks the run to drop. Returns FAILED if any call failed or the run was still going at {@code
   * deadlineNanos} ({@link System#nanoTime()} time).
   */
  RunResult run(
      BenchmarkClient client,
      String system,
      int threads,
      int requests,
      int run,
      boolean firstOfCell,
      long deadlineNanos)
      throws InterruptedException {
    Shared shared = new Shared(client, threads, requests);
    for (int t = 0; t < threads; t++) {
      Thread worker = new Thread(new Worker(shared, t), "stress-" + system + "-" + t);
      worker.setDaemon(true);
      worker.start();
    }
    shared.ready.await();
    long start = System.nanoTime();
    shared.go.countDown();
    abandoned = false;
    long total = (long) threads * requests;

    while (!shared.finished.await(
        Math.min(REPORT_EVERY_NANOS, Math.max(0, deadlineNanos - System.nanoTime())),
        TimeUnit.NANOSECONDS)) {
      double seconds = (System.nanoTime() - start) / 1e9;
      if (System.nanoTime() - deadlineNanos >= 0) {
        shared.stopped = true;
        abandoned = true;
        String reason =
            String.format(
                "exceeded the cell's time limit (%d of %d calls done after %.1f s)",
                shared.done.get(), total, seconds);
        return result(
            system, threads, requests, run, Double.NaN, shared, RunResult.Status.FAILED, reason);
      }
      progress.accept(
          String.format(
              "    ... run %d: %d of %d calls done after %.0f s",
              run, shared.done.get(), total, seconds));
    }
    double millis = (System.nanoTime() - start) / 1e6;

    int errors = shared.errors.get();
    if (errors > 0) {
      String reason = errors + " of " + total + " calls failed, first: " + shared.firstError.get();
      return result(
          system, threads, requests, run, millis, shared, RunResult.Status.FAILED, reason);
    }
    RunResult.Status status = firstOfCell ? RunResult.Status.DROPPED : RunResult.Status.OK;
    return result(system, threads, requests, run, millis, shared, status, "");
  }

  private static RunResult result(
      String system,
      int threads,
      int requests,
      int run,
      double millis,
      Shared shared,
      RunResult.Status status,
      String reason) {
    long[] latencies =
        Double.isNaN(millis)
            ? new long[0]
            : Arrays.stream(shared.latencies).flatMapToLong(Arrays::stream).sorted().toArray();
    return new RunResult(
        system, threads, requests, run, millis, shared.errors.get(), status, reason, latencies);
  }

  /** What the workers of one run share: the client, the gates, the counters and their latencies. */
  private static final class Shared {
    final BenchmarkClient client;
    final int requests;
    final long[][] latencies;
    final CountDownLatch ready;
    final CountDownLatch go = new CountDownLatch(1);
    final CountDownLatch finished;
    final AtomicInteger done = new AtomicInteger();
    final AtomicInteger errors = new AtomicInteger();
    final AtomicReference<Throwable> firstError = new AtomicReference<>();
    volatile boolean stopped;

    Shared(BenchmarkClient client, int threads, int requests) {
      this.client = client;
      this.requests = requests;
      this.latencies = new long[threads][];
      this.ready = new CountDownLatch(threads);
      this.finished = new CountDownLatch(threads);
    }
  }

  /**
   * One client thread: waits for the start, makes its calls, records the latency of each success.
   */
  private static final class Worker implements Runnable {
    private final Shared shared;
    private final int index;

    Worker(Shared shared, int index) {
      this.shared = shared;
      this.index = index;
    }

    @Override
    public void run() {
      Workload.Call call = shared.client.newCall(Workload.ECHO_16B);
      long[] mine = new long[shared.requests];
      int ok = 0;
      shared.ready.countDown();
      try {
        shared.go.await();
        for (int i = 0; i < shared.requests && !shared.stopped; i++) {
          long start = System.nanoTime();
          try {
            call.invoke();
            mine[ok++] = System.nanoTime() - start;
          } catch (RuntimeException e) {
            shared.errors.incrementAndGet();
            shared.firstError.compareAndSet(null, e);
          }
          shared.done.incrementAndGet();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        shared.latencies[index] = Arrays.copyOf(mine, ok);
        shared.finished.countDown();
      }
    }
  }
}
