package io.rpcx.server.internal.dispatch;

import io.rpcx.core.internal.runtime.VirtualThreads;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's executor with {@code virtualThreads()} (Java 21+): each call starts at once on a
 * virtual thread of its own, named {@code threadPrefix + n}, and at most {@code maxCalls} run at a
 * time; beyond that a call is rejected with a message naming the limit, as {@link WorkerPool}
 * rejects past its threads and queue. Nothing is queued: a call waits only for a carrier thread
 * (the JDK's scheduler, one per core), never behind a busy worker.
 *
 * <p>Shutting down covers every virtual thread it started: {@link #awaitTermination} returns when
 * the last has ended, and {@link #shutdownNow()} interrupts those still running. Virtual threads
 * are not in {@code Thread.getAllStackTraces()}, so thread-leak checks that list threads do not
 * see them; the server's stop waits for them instead.
 */
public final class VirtualThreadPool extends AbstractExecutorService {
  private static final Logger logger = LoggerFactory.getLogger(VirtualThreadPool.class);

  private final ExecutorService threads;
  private final int maxCalls;
  /** Calls accepted and not finished; at most {@code maxCalls}. */
  private final AtomicInteger accepted = new AtomicInteger();

  private VirtualThreadPool(ExecutorService threads, int maxCalls) {
    this.threads = threads;
    this.maxCalls = maxCalls;
  }

  /**
   * An executor running each call on a new virtual thread, at most {@code maxCalls} at once.
   *
   * @throws UnsupportedOperationException before Java 21
   */
  public static VirtualThreadPool create(int maxCalls, String threadPrefix) {
    if (maxCalls < 1) {
      throw new IllegalArgumentException("maxCalls: " + maxCalls + " (expected: >= 1)");
    }
    return new VirtualThreadPool(VirtualThreads.newThreadPerTaskExecutor(threadPrefix), maxCalls);
  }

  @Override
  public void execute(Runnable call) {
    if (threads.isShutdown()) {
      throw new RejectedExecutionException("the server is stopping");
    }
    if (accepted.incrementAndGet() > maxCalls) {
      accepted.decrementAndGet();
      throw new RejectedExecutionException(
          "all " + maxCalls + " calls it takes at once are running on virtual threads");
    }
    try {
      threads.execute(new Counted(call));
    } catch (RejectedExecutionException e) {
      accepted.decrementAndGet();
      throw new RejectedExecutionException("the server is stopping", e);
    }
  }

  /** Number of calls accepted and not finished. */
  public int acceptedCalls() {
    return accepted.get();
  }

  /** Runs its call and counts it as finished; a failure is logged. */
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
    threads.shutdown();
  }

  @Override
  public List<Runnable> shutdownNow() {
    return threads.shutdownNow();
  }

  @Override
  public boolean isShutdown() {
    return threads.isShutdown();
  }

  @Override
  public boolean isTerminated() {
    return threads.isTerminated();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return threads.awaitTermination(timeout, unit);
  }
}
