package io.rpcx.cli;

import io.rpcx.client.RawCall;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A load test: {@code concurrency} threads, each sending one call at a time and the next as soon as
 * it is answered, until {@code total} calls were started or {@code duration} has passed. Latencies
 * of successful calls go to an HdrHistogram; failures are counted by status. Progress goes to
 * stderr once a second: a bar on a terminal, a line otherwise.
 */
final class LoadRun {
  private final RpcxClient client;
  private final RawCall call;
  private final int concurrency;
  private final long total;
  private final Duration duration;
  private final Recorder recorder = new Recorder(3);
  private final LongAdder ok = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final Map<String, String> firstErrors = new ConcurrentHashMap<>();
  private final AtomicLong started = new AtomicLong();
  private final List<Thread> workers = new ArrayList<>();
  private volatile boolean stopped;
  private final List<BenchResult.Second> timeline = new ArrayList<>();
  private final Histogram latency = new Histogram(3);
  private Histogram interval;
  private long lastCalls;
  private long lastErrors;

  /**
   * @param total calls to make, or 0 to run for {@code duration}
   * @param duration how long to run when {@code total} is 0
   */
  LoadRun(RpcxClient client, RawCall call, int concurrency, long total, Duration duration) {
    this.client = client;
    this.call = call;
    this.concurrency = concurrency;
    this.total = total;
    this.duration = duration;
  }

  /** Runs the test, reporting progress to {@code progress}; returns its result. */
  BenchResult run(PrintWriter progress, boolean terminal) throws InterruptedException {
    long start = System.nanoTime();
    long deadline = total > 0 ? Long.MAX_VALUE : start + duration.toNanos();
    CountDownLatch done = new CountDownLatch(concurrency);
    synchronized (workers) {
      for (int i = 0; i < concurrency; i++) {
        Thread worker = new Thread(() -> work(deadline, done), "rpcx-bench-" + i);
        worker.setDaemon(true);
        workers.add(worker);
      }
    }
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "rpcx-bench-progress");
              thread.setDaemon(true);
              return thread;
            });
    ticker.scheduleAtFixedRate(
        () -> tick(start, progress, terminal), 1, 1, TimeUnit.SECONDS);
    synchronized (workers) {
      if (!stopped) {
        workers.forEach(Thread::start);
      } else {
        workers.forEach(worker -> done.countDown());
      }
    }
    done.await();
    long elapsed = System.nanoTime() - start;
    ticker.shutdown();
    ticker.awaitTermination(10, TimeUnit.SECONDS);
    synchronized (this) {
      sample(elapsed);
    }
    if (terminal) {
      progress.print("\r" + " ".repeat(79) + "\r");
      progress.flush();
    }
    Map<String, Long> counted = new TreeMap<>();
    errors.forEach((status, count) -> counted.put(status, count.sum()));
    return new BenchResult(
        call.service() + "/" + call.method(), concurrency, ok.sum(), counted,
        new TreeMap<>(firstErrors), Duration.ofNanos(elapsed), latency, List.copyOf(timeline),
        stopped);
  }

  /**
   * Ends the run early (Ctrl-C): no call is started any more, and the calls in flight are left
   * out of the result, which {@link #run} returns at once with what was measured so far.
   */
  void stop() {
    synchronized (workers) {
      stopped = true;
      workers.forEach(Thread::interrupt);
    }
  }

  private void work(long deadline, CountDownLatch done) {
    try {
      while (!stopped
          && System.nanoTime() < deadline
          && (total == 0 || started.incrementAndGet() <= total)) {
        long begin = System.nanoTime();
        try {
          client.call(call).get();
          recorder.recordValue(Math.max(1, System.nanoTime() - begin));
          ok.increment();
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          String status = cause instanceof RpcxException
              ? ((RpcxException) cause).status().name()
              : cause.getClass().getSimpleName();
          errors.computeIfAbsent(status, key -> new LongAdder()).increment();
          firstErrors.putIfAbsent(status, String.valueOf(cause.getMessage()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    } finally {
      done.countDown();
    }
  }

  private synchronized void tick(long start, PrintWriter progress, boolean terminal) {
    long elapsed = System.nanoTime() - start;
    BenchResult.Second second = sample(elapsed);
    long calls = ok.sum() + errorCount();
    double seconds = elapsed / 1e9;
    String counts = String.format(Locale.ROOT, "%d calls, %.0f calls/s, %d errors",
        calls, second.calls() / second.seconds(), errorCount());
    if (terminal) {
      double done = total > 0 ? (double) calls / total : seconds / (duration.toNanos() / 1e9);
      int width = 30;
      int filled = (int) Math.min(width, Math.round(done * width));
      progress.printf(Locale.ROOT, "\r[%s%s] %3.0f%% %s", "=".repeat(filled),
          " ".repeat(width - filled), Math.min(100, done * 100), counts);
    } else {
      progress.printf(Locale.ROOT, "[%.0fs] %s%n", seconds, counts);
    }
    progress.flush();
  }

  /** Moves what was recorded since the last sample into the totals and the timeline. */
  private BenchResult.Second sample(long elapsedNanos) {
    interval = recorder.getIntervalHistogram(interval);
    latency.add(interval);
    long calls = ok.sum() + errorCount();
    long failed = errorCount();
    double previous = timeline.isEmpty() ? 0 : timeline.get(timeline.size() - 1).at();
    double at = elapsedNanos / 1e9;
    BenchResult.Second second =
        new BenchResult.Second(
            at, at - previous, calls - lastCalls, failed - lastErrors,
            interval.getTotalCount() == 0 ? 0 : interval.getValueAtPercentile(50) / 1e6,
            interval.getTotalCount() == 0 ? 0 : interval.getValueAtPercentile(99) / 1e6);
    lastCalls = calls;
    lastErrors = failed;
    if (second.seconds() > 0.05 || timeline.isEmpty()) {
      timeline.add(second);
    }
    return second;
  }

  private long errorCount() {
    long count = 0;
    for (LongAdder adder : errors.values()) {
      count += adder.sum();
    }
    return count;
  }
}
