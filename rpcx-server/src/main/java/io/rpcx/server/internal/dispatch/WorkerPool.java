package io.rpcx.server.internal.dispatch;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's default executor for implementation code: at most {@code maxThreads} threads,
 * started on demand and ended after a minute idle, and at most {@code maxQueuedCalls} calls waiting
 * for one (counted as {@code maxThreads + maxQueuedCalls} calls accepted and not finished); beyond
 * that a call is rejected with a message naming both limits.
 *
 * <p>It runs on a {@link ForkJoinPool} in FIFO mode rather than a {@code ThreadPoolExecutor}
 * because of how each wakes its threads, measured with {@code LatencyBenchmark.threads001} and
 * {@code ThroughputBenchmark.threads032} (echo16, 2 cores): a thread pool over a {@code
 * LinkedBlockingQueue} hands each call to the longest-idle of its threads, cycling every call
 * through all 200 cold threads (p50 88 µs for one caller); the fork-join pool wakes the most
 * recently idle thread and lets a running thread take the next call without a wake-up (p50 80 µs,
 * and the same throughput at 32 callers). Implementation code may block: the pool never adds
 * threads beyond {@code maxThreads} to make up for blocked ones. Its threads are fork-join
 * threads, so a parallel stream started by implementation code runs on this pool (bounded by
 * {@code maxThreads}) rather than on the common pool.
 */
public final class WorkerPool extends AbstractExecutorService {
  private static final Logger logger = LoggerFactory.getLogger(WorkerPool.class);
  private static final Duration KEEP_ALIVE = Duration.ofSeconds(60);

  private final ForkJoinPool pool;
  private final int maxThreads;
  private final int maxQueuedCalls;
  /** Calls accepted and not finished; at most {@code maxThreads + maxQueuedCalls}. */
  private final AtomicInteger accepted = new AtomicInteger();

  private WorkerPool(int maxThreads, int maxQueuedCalls, Duration keepAlive, String threadPrefix) {
    this.maxThreads = maxThreads;
    this.maxQueuedCalls = maxQueuedCalls;
    AtomicInteger count = new AtomicInteger();
    // Fork-join threads would otherwise run with the system class loader as their context class
    // loader; implementation code gets the one of the thread that built the server, as it would
    // from a plain thread pool.
    ClassLoader contextLoader = Thread.currentThread().getContextClassLoader();
    this.pool =
        new ForkJoinPool(
            maxThreads,
            owner -> {
              ForkJoinWorkerThread thread =
                  ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(owner);
              thread.setName(threadPrefix + count.incrementAndGet());
              thread.setDaemon(true);
              thread.setContextClassLoader(contextLoader);
              return thread;
            },
            null,
            true, // FIFO: calls start in the order they arrived
            0,
            maxThreads, // no extra threads to compensate for blocked ones
            1,
            saturated -> true, // at the limit a blocking join just blocks, as in any thread pool
            keepAlive.toNanos(),
            TimeUnit.NANOSECONDS);
  }

  /**
   * A pool of at most {@code maxThreads} threads named {@code threadPrefix + n}, queueing at most
   * {@code maxQueuedCalls} calls while they are busy.
   */
  public static WorkerPool create(int maxThreads, int maxQueuedCalls, String threadPrefix) {
    return create(maxThreads, maxQueuedCalls, KEEP_ALIVE, threadPrefix);
  }

  /** As {@link #create(int, int, String)}; a thread idle for {@code keepAlive} ends. */
  static WorkerPool create(
      int maxThreads, int maxQueuedCalls, Duration keepAlive, String threadPrefix) {
    if (maxThreads < 1 || maxQueuedCalls < 0) {
      throw new IllegalArgumentException(
          "maxThreads must be positive and maxQueuedCalls not negative: "
              + maxThreads
              + ", "
              + maxQueuedCalls);
    }
    return new WorkerPool(maxThreads, maxQueuedCalls, keepAlive, threadPrefix);
  }

  @Override
  public void execute(Runnable call) {
    if (pool.isShutdown()) {
      throw new RejectedExecutionException("the server is stopping");
    }
    if (accepted.incrementAndGet() > maxThreads + maxQueuedCalls) {
      accepted.decrementAndGet();
      throw new RejectedExecutionException(
          "all "
              + maxThreads
              + " worker threads are busy and "
              + maxQueuedCalls
              + " calls are queued");
    }
    try {
      pool.execute(new Counted(call));
    } catch (RejectedExecutionException e) {
      accepted.decrementAndGet();
      throw new RejectedExecutionException("the server is stopping", e);
    }
  }

  /** Number of calls accepted and not finished: running, or waiting for a thread. */
  public int acceptedCalls() {
    return accepted.get();
  }

  /** Calls waiting for a thread (an estimate, as the pool's own counts are). */
  public int queuedCalls() {
    long queued = pool.getQueuedSubmissionCount() + pool.getQueuedTaskCount();
    return (int) Math.min(Integer.MAX_VALUE, queued);
  }

  /** Whether every thread is idle: none is running a call or looking for one. */
  boolean isQuiescent() {
    return pool.isQuiescent();
  }

  /** Number of threads the pool has now, busy or idle. */
  public int threads() {
    return pool.getPoolSize();
  }

  /** Runs its call and counts it as finished; a failure is logged, the thread lives on. */
  private final class Counted implements Runnable {
    private final Runnable call;

    Counted(Runnable call) {
      this.call = call;
    }

    @Override
    public void run() {
      try {
        call.run();
      } catch (RuntimeException e) {
        logger.error("A call failed outside its own error handling", e);
      } finally {
        accepted.decrementAndGet();
      }
    }
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
