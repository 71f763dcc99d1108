package io.rpcx.server.internal.dispatch;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * {@link WorkerPool.Design#FORK_JOIN}: the calls go to a {@link ForkJoinPool} in FIFO mode. The
 * default before Java 21 (docs/BENCHMARKS.md, "Hand-off designs"): on JDK 17 it is even with
 * {@link LifoWorkerPool}; on JDK 25 its idle threads scan the pool's whole queue array before
 * they park, and it ran at a third of {@code LifoWorkerPool}'s rate.
 *
 * <p>It was chosen over a {@code ThreadPoolExecutor} because of how each wakes its threads,
 * measured on JDK 17 with {@code LatencyBenchmark.threads001} and {@code
 * ThroughputBenchmark.threads032} (echo16, 2 cores): a thread pool over a {@code
 * LinkedBlockingQueue} hands each call to the longest-idle of its threads, cycling every call
 * through all 200 cold threads (p50 88 µs for one caller); the fork-join pool wakes the most
 * recently idle thread and lets a running thread take the next call without a wake-up (p50 80 µs,
 * and the same throughput at 32 callers). Its threads are fork-join threads, so a parallel stream
 * started by implementation code runs on this pool (bounded by {@code maxThreads}) rather than on
 * the common pool.
 */
final class ForkJoinWorkerPool extends WorkerPool {
  private final ForkJoinPool pool;

  ForkJoinWorkerPool(
      int maxThreads, int maxQueuedCalls, Duration keepAlive, WorkerThreads threads) {
    super(maxThreads, maxQueuedCalls);
    this.pool =
        new ForkJoinPool(
            maxThreads,
            owner ->
                threads.configure(
                    ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(owner)),
            null,
            true, // FIFO: calls start in the order they arrived
            0,
            maxThreads, // no extra threads to compensate for blocked ones
            1,
            saturated -> true, // at the limit a blocking join just blocks, as in any thread pool
            keepAlive.toNanos(),
            TimeUnit.NANOSECONDS);
  }

  @Override
  void handOff(Counted call) {
    pool.execute(call);
  }

  @Override
  public int queuedCalls() {
    long queued = pool.getQueuedSubmissionCount() + pool.getQueuedTaskCount();
    return (int) Math.min(Integer.MAX_VALUE, queued);
  }

  @Override
  boolean isQuiescent() {
    return pool.isQuiescent();
  }

  @Override
  public int threads() {
    return pool.getPoolSize();
  }

  @Override
  public void shutdown() {
    pool.shutdown();
  }

  @Override
  public List<Runnable> shutdownNow() {
    return pool.shutdownNow();
  }

  @Override
  public boolean isShutdown() {
    return pool.isShutdown();
  }

  @Override
  public boolean isTerminated() {
    return pool.isTerminated();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return pool.awaitTermination(timeout, unit);
  }
}
