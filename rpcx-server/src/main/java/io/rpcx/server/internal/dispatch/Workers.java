package io.rpcx.server.internal.dispatch;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Where a server runs implementation code: on the network threads ({@code null} executor), on the
 * user's executor, or on a {@link WorkerPool} the server owns and shuts down when it stops.
 */
public final class Workers {
  private final Executor executor;
  private final ExecutorService owned;

  private Workers(Executor executor, ExecutorService owned) {
    this.executor = executor;
    this.owned = owned;
  }

  /**
   * The workers: none when {@code direct}, else {@code executor} if given, else a pool of the
   * server's own with {@code threads} threads queueing at most {@code maxQueued} calls.
   */
  public static Workers of(boolean direct, Executor executor, int threads, int maxQueued) {
    if (direct) {
      return new Workers(null, null);
    }
    if (executor != null) {
      return new Workers(executor, null);
    }
    WorkerPool pool = WorkerPool.create(threads, maxQueued, "rpcx-server-worker-");
    return new Workers(pool, pool);
  }

  /** The executor of implementation code, or {@code null} to run it on the network threads. */
  public Executor executor() {
    return executor;
  }

  /**
   * Calls waiting for a thread: counted for the server's own pool and a {@code
   * ThreadPoolExecutor}, 0 otherwise.
   */
  public int queuedCalls() {
    if (executor instanceof WorkerPool) {
      return ((WorkerPool) executor).queuedCalls();
    }
    if (executor instanceof ThreadPoolExecutor) {
      return ((ThreadPoolExecutor) executor).getQueue().size();
    }
    return 0;
  }

  /**
   * Shuts the server's own pool down, letting its calls finish for at most {@code timeoutNanos},
   * then interrupting them; leaves a user's executor alone.
   */
  public void shutdown(long timeoutNanos) {
    if (owned == null) {
      return;
    }
    owned.shutdown();
    try {
      if (!owned.awaitTermination(timeoutNanos, TimeUnit.NANOSECONDS)) {
        owned.shutdownNow();
      }
    } catch (InterruptedException e) {
      owned.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
