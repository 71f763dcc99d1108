package io.rpcx.client.internal.call;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor asynchronous calls complete on: the user's, or one the client owns and shuts down
 * when it closes.
 *
 * <p>The client's own is a fork-join pool in FIFO mode with one thread per processor (at least
 * two), which adds threads for callbacks blocked in {@code CompletableFuture.join()} or {@code
 * get()} (up to {@value #MAX_THREADS}), as the JDK's common pool does. A pool that made a thread
 * for each task when none was idle took hundreds of milliseconds to make thousands of them when
 * that many timeouts or replies came at once (DeadlineTest).
 */
public final class CallbackPool {
  /** Most threads the client's own pool has, counting those added for blocked callbacks. */
  static final int MAX_THREADS = 256;

  private final Executor executor;
  private final ExecutorService owned;

  private CallbackPool(Executor executor, ExecutorService owned) {
    this.executor = executor;
    this.owned = owned;
  }

  /** {@code executor} if not {@code null} (the user's, never shut down), else a pool of our own. */
  public static CallbackPool of(Executor executor) {
    if (executor != null) {
      return new CallbackPool(executor, null);
    }
    ExecutorService own = newPool();
    return new CallbackPool(own, own);
  }

  public Executor executor() {
    return executor;
  }

  /** Shuts the client's own pool down; leaves a user's executor alone. */
  public void shutdown() {
    if (owned != null) {
      owned.shutdown();
    }
  }

  private static ExecutorService newPool() {
    AtomicInteger count = new AtomicInteger();
    int parallelism = Math.max(2, Runtime.getRuntime().availableProcessors());
    return new ForkJoinPool(
        parallelism,
        pool -> {
          ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
          thread.setName("rpcx-client-callback-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        },
        null,
        true,
        0,
        MAX_THREADS,
        1,
        saturated -> true, // past the limit a blocking join just blocks
        30,
        TimeUnit.SECONDS);
  }
}
