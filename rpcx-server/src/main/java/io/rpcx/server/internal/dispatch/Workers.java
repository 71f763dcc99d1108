package io.rpcx.server.internal.dispatch;

import io.rpcx.server.internal.config.ServerConfig;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Where a server runs implementation code: on the network threads ({@code null} executor), on the
 * user's executor, on a virtual thread per call ({@link VirtualThreadPool}), or on a {@link
 * WorkerPool}; the server owns the last two and shuts them down when it stops.
 *
 * <p>The pool's {@linkplain WorkerPool.Design design} is read from the internal system property
 * {@value WorkerPool.Design#PROPERTY} each time a server is built (for benchmarks that compare
 * the designs; not a supported setting).
 */
public final class Workers {
  private final Executor executor;
  private final ExecutorService owned;

  private Workers(Executor executor, ExecutorService owned) {
    this.executor = executor;
    this.owned = owned;
  }

  /**
   * The workers {@code config} asks for: none when direct, else the user's executor if given, else
   * a virtual thread per call, else a pool of the server's own with its worker threads and queue.
   */
  public static Workers of(ServerConfig config) {
    if (config.direct()) {
      return new Workers(null, null);
    }
    if (config.executor() != null) {
      return new Workers(config.executor(), null);
    }
    if (config.virtualThreads()) {
      VirtualThreadPool virtual =
          VirtualThreadPool.create(config.virtualThreadCalls(), "rpcx-server-virtual-");
      return new Workers(virtual, virtual);
    }
    WorkerPool pool =
        WorkerPool.create(
            WorkerPool.Design.fromSystemProperty(),
            config.workerThreads(),
            config.maxQueuedCalls(),
            "rpcx-server-worker-");
    return new Workers(pool, pool);
  }

  /** The executor of implementation code, or {@code null} to run it on the network threads. */
  public Executor executor() {
    return executor;
  }

  /**
   * Calls waiting for a thread: counted for the server's own pool and a {@code
   * ThreadPoolExecutor}, 0 otherwise (virtual threads queue nothing).
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
   * Shuts the server's own pool or virtual threads down, letting their calls finish for at most
   * {@code timeoutNanos}, then interrupting them; leaves a user's executor alone.
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
