package io.rpcx.server.internal.dispatch;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's default executor for implementation code: at most {@code maxThreads} threads,
 * started on demand and ended after a minute idle, and at most {@code maxQueuedCalls} calls waiting
 * for one (counted as {@code maxThreads + maxQueuedCalls} calls accepted and not finished); beyond
 * that a call is rejected with a message naming both limits. Its threads are daemon threads named
 * {@code threadPrefix + n}, with the context class loader of the thread that built the pool; a
 * call that throws is logged and its thread serves on. Implementation code may block: no design
 * adds threads beyond {@code maxThreads} to make up for blocked ones.
 *
 * <p>How a call reaches a thread is the {@link Design}: this class keeps the limits, the count
 * and the logging, each design only the hand-off. A server reads its design once, when it is built
 * ({@link Design#fromSystemProperty()}), so that one benchmark jar can compare them.
 */
public abstract class WorkerPool extends AbstractExecutorService {
  private static final Logger logger = LoggerFactory.getLogger(WorkerPool.class);
  private static final Duration KEEP_ALIVE = Duration.ofSeconds(60);

  /**
   * How calls reach the pool's threads. Internal, for benchmarks: the system property {@value
   * #PROPERTY} ({@code lifo}, {@code spinning} or {@code forkjoin}) picks one for every server
   * the JVM builds; it is not a supported setting. The {@linkplain #DEFAULT default} depends on the
   * Java version (docs/BENCHMARKS.md, "Hand-off designs").
   */
  public enum Design {
    /**
     * One shared queue; an idle thread parks at once, and parked threads are woken most recently
     * idle first, one at a time ({@link LifoWorkerPool}).
     */
    LIFO("lifo"),
    /** As {@link #LIFO}, but an idle thread spins for up to 20 µs before it parks. */
    SPINNING("spinning"),
    /** A FIFO {@link java.util.concurrent.ForkJoinPool} ({@link ForkJoinWorkerPool}). */
    FORK_JOIN("forkjoin");

    /** The system property naming the design of every server's pool. */
    public static final String PROPERTY = "rpcx.server.workerPool";

    /**
     * The design servers use when the property is not set: {@link #LIFO} from Java 21, {@link
     * #FORK_JOIN} before. On JDK 25 the fork-join pool spends most of its CPU looking for work
     * before it parks, and {@code LIFO} ran three times its calls per second; on JDK 17 the two
     * were even at 1 caller, {@code LIFO} 9% ahead at 128 callers and 9% behind at 32 (within the
     * noise of a busy machine), so 17 keeps the pool it had. No JDK 21 was measured: {@code LIFO}
     * is taken there because its cost does not hang on the JDK's {@code ForkJoinPool}, whose
     * idle-thread scan changed after 17.
     */
    public static final Design DEFAULT = Runtime.version().feature() >= 21 ? LIFO : FORK_JOIN;

    private final String propertyValue;

    Design(String propertyValue) {
      this.propertyValue = propertyValue;
    }

    /** The design {@value #PROPERTY} names, or {@link #DEFAULT} if it is not set. */
    public static Design fromSystemProperty() {
      return parse(System.getProperty(PROPERTY));
    }

    static Design parse(String value) {
      if (value == null || value.isBlank()) {
        return DEFAULT;
      }
      String wanted = value.trim().toLowerCase(Locale.ROOT);
      StringBuilder expected = new StringBuilder();
      for (Design design : values()) {
        if (design.propertyValue.equals(wanted)) {
          return design;
        }
        expected.append(expected.length() == 0 ? "" : ", ").append(design.propertyValue);
      }
      throw new IllegalArgumentException(
          PROPERTY + ": " + value + " (expected: one of " + expected + ")");
    }

    @Override
    public String toString() {
      return propertyValue;
    }
  }

  /** The most threads the pool runs at once. */
  final int maxThreads;

  private final int maxQueuedCalls;

  /** Calls accepted and not finished; at most {@code maxThreads + maxQueuedCalls}. */
  private final AtomicInteger accepted = new AtomicInteger();

  WorkerPool(int maxThreads, int maxQueuedCalls) {
    this.maxThreads = maxThreads;
    this.maxQueuedCalls = maxQueuedCalls;
  }

  /**
   * A pool of the {@linkplain Design#DEFAULT default design} of at most {@code maxThreads}
   * threads named {@code threadPrefix + n}, queueing at most {@code maxQueuedCalls} calls while
   * they are busy.
   */
  public static WorkerPool create(int maxThreads, int maxQueuedCalls, String threadPrefix) {
    return create(Design.DEFAULT, maxThreads, maxQueuedCalls, KEEP_ALIVE, threadPrefix);
  }

  /** As {@link #create(int, int, String)}, of the given design. */
  public static WorkerPool create(
      Design design, int maxThreads, int maxQueuedCalls, String threadPrefix) {
    return create(design, maxThreads, maxQueuedCalls, KEEP_ALIVE, threadPrefix);
  }

  /** As {@link #create(Design, int, int, String)}; a thread idle for {@code keepAlive} ends. */
  static WorkerPool create(
      Design design, int maxThreads, int maxQueuedCalls, Duration keepAlive, String threadPrefix) {
    if (maxThreads < 1) {
      throw new IllegalArgumentException("maxThreads: " + maxThreads + " (expected: >= 1)");
    }
    if (maxQueuedCalls < 0) {
      throw new IllegalArgumentException(
          "maxQueuedCalls: " + maxQueuedCalls + " (expected: >= 0)");
    }
    WorkerThreads threads = new WorkerThreads(threadPrefix);
    switch (design) {
      case FORK_JOIN:
        return new ForkJoinWorkerPool(maxThreads, maxQueuedCalls, keepAlive, threads);
      case SPINNING:
        return new LifoWorkerPool(
            maxThreads, maxQueuedCalls, keepAlive, threads, LifoWorkerPool.SPIN);
      case LIFO:
        return new LifoWorkerPool(
            maxThreads, maxQueuedCalls, keepAlive, threads, Duration.ZERO);
      default:
        throw new AssertionError(design);
    }
  }

  @Override
  public final void execute(Runnable call) {
    if (isShutdown()) {
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
      handOff(new Counted(call));
    } catch (RejectedExecutionException e) {
      accepted.decrementAndGet();
      throw new RejectedExecutionException("the server is stopping", e);
    }
  }

  /**
   * Runs {@code call} on one of the pool's threads, or throws {@link RejectedExecutionException}
   * if the pool has stopped taking calls (the count of accepted calls is then undone by {@link
   * #execute}).
   */
  abstract void handOff(Counted call);

  /** Number of calls accepted and not finished: running, or waiting for a thread. */
  public final int acceptedCalls() {
    return accepted.get();
  }

  /** Calls waiting for a thread (an estimate, taken without stopping the pool). */
  public abstract int queuedCalls();

  /** Whether every thread is idle: none is running a call or looking for one. */
  abstract boolean isQuiescent();

  /** Number of threads the pool has now, busy or idle. */
  public abstract int threads();

  /** Counts {@code dropped} calls that {@code shutdownNow} took off the queue as finished. */
  final void dropped(int dropped) {
    accepted.addAndGet(-dropped);
  }

  /** Runs its call and counts it as finished; a failure is logged, the thread lives on. */
  final class Counted implements Runnable {
    final Runnable call;

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
}
