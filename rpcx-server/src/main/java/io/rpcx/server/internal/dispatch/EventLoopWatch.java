package io.rpcx.server.internal.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices implementation code that holds a network thread too long: while a call runs on a
 * network thread (a non-blocking method, or every method with {@code directExecutor()}), every
 * other call on that thread's connections waits, so a call that blocks there must not go unseen.
 * Each network thread marks the start and end of each call it runs in a {@link Slot} of its own
 * (two ordered writes, no clock read); one daemon thread, started with the first slot, looks at
 * the slots every fifth of the threshold and logs a warning naming the call, the thread, how long
 * it has held it and the thread's stack once a call has held it for the threshold, and another
 * when it lets go. Time the checker itself was held up (a pause of the whole JVM, for garbage
 * collection) is not counted: it would otherwise blame whichever call was running.
 */
public final class EventLoopWatch implements AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(EventLoopWatch.class);
  private static final VarHandle TURNS;

  static {
    try {
      TURNS = MethodHandles.lookup().findVarHandle(Slot.class, "turns", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final long thresholdNanos;
  private final long periodNanos;
  private final ThreadLocal<Slot> slots;
  private final List<Slot> all = new CopyOnWriteArrayList<>();
  private final Object lock = new Object();
  private Thread checker;
  private volatile boolean closed;

  private EventLoopWatch(Duration threshold) {
    this.thresholdNanos = threshold.toNanos();
    this.periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), thresholdNanos / 5);
    this.slots = ThreadLocal.withInitial(this::register);
  }

  /** A watch warning of calls that hold a network thread for {@code threshold}; off if zero. */
  public static EventLoopWatch of(Duration threshold) {
    return new EventLoopWatch(threshold);
  }

  /** The current thread's slot, or {@code null} when the watch is off. */
  Slot slot() {
    return thresholdNanos == 0 ? null : slots.get();
  }

  private Slot register() {
    Slot slot = new Slot(Thread.currentThread());
    all.add(slot);
    synchronized (lock) {
      if (checker == null && !closed) {
        // No inheritable thread-locals of the network thread that happens to register first.
        checker = new Thread(null, this::check, "rpcx-server-event-loop-watch", 0, false);
        checker.setDaemon(true);
        checker.start();
      }
    }
    return slot;
  }

  /** Stops the checker; slots still used afterwards are not looked at. */
  @Override
  public void close() {
    closed = true;
    synchronized (lock) {
      if (checker != null) {
        LockSupport.unpark(checker);
      }
    }
  }

  private void check() {
    long last = System.nanoTime();
    while (!closed) {
      LockSupport.parkNanos(this, periodNanos);
      long now = System.nanoTime();
      // Woken late by more than half a period: the JVM (or the machine) was paused, and the
      // time a call seems to have run includes the pause. Start counting again from now.
      boolean paused = now - last > periodNanos + periodNanos / 2;
      last = now;
      for (Slot slot : all) {
        slot.check(now, paused, thresholdNanos);
      }
    }
  }

  /**
   * What one network thread is running. {@link #turns} is odd while a call runs on it; the call
   * is written before the turn that starts it, so the checker, reading the turn first, sees it.
   */
  static final class Slot {
    private final Thread thread;
    @SuppressWarnings("unused") // through TURNS
    private volatile long turns;
    private ServerCall call;
    // The checker's own.
    private long seenTurns;
    private long seenSince;
    private ServerCall reported;
    private long reportedAt;

    Slot(Thread thread) {
      this.thread = thread;
    }

    /** {@code call} starts running on this slot's thread. */
    void enter(ServerCall call) {
      this.call = call;
      TURNS.setRelease(this, (long) TURNS.getOpaque(this) + 1);
    }

    /** The call that entered last has returned; the slot no longer holds it. */
    void exit() {
      TURNS.setRelease(this, (long) TURNS.getOpaque(this) + 1);
      call = null;
    }

    void check(long now, boolean paused, long thresholdNanos) {
      long current = (long) TURNS.getAcquire(this);
      if ((current & 1) == 0 || current != seenTurns) {
        released(now);
        seenTurns = current;
        seenSince = now;
        return;
      }
      if (paused && reported == null) {
        seenSince = now;
        return;
      }
      if (reported == null && now - seenSince >= thresholdNanos) {
        ServerCall running = call;
        // The call read after the turn: still the one that has run all along only if the turn
        // has not moved meanwhile (else it ended at the threshold, and another may have begun).
        if (running != null && (long) TURNS.getAcquire(this) == current) {
          report(running, now - seenSince, thresholdNanos);
          reported = running;
          reportedAt = seenSince;
        }
      }
    }

    private void report(ServerCall running, long heldNanos, long thresholdNanos) {
      ServerMethod method = running.method;
      StackTraceElement[] stack = thread.getStackTrace();
      BlockedHere where = new BlockedHere(thread.getName());
      where.setStackTrace(stack);
      logger.warn(
          "{} from {} has held network thread {} for {} ms (threshold {} ms): every other call on"
              + " that thread's connections waits until it returns. It runs there because {};"
              + " code that blocks must not: annotate the method (or the blocking interceptor's"
              + " class) @Blocking, or make it asynchronous without blocking.",
          method.model().displayName(),
          running.connection.remoteAddress(),
          thread.getName(),
          TimeUnit.NANOSECONDS.toMillis(heldNanos),
          TimeUnit.NANOSECONDS.toMillis(thresholdNanos),
          method.runsOnEventLoop()
              ? "it is " + method.eventLoopReason()
              : "the server runs every call on its network threads (directExecutor())",
          where);
    }

    private void released(long now) {
      ServerCall done = reported;
      if (done == null) {
        return;
      }
      reported = null;
      logger.warn(
          "{} let go of network thread {} after about {} ms",
          done.method.model().displayName(),
          thread.getName(),
          TimeUnit.NANOSECONDS.toMillis(now - reportedAt));
    }
  }

  /** Where a network thread was found held; logged as the cause of the warning, not thrown. */
  private static final class BlockedHere extends Exception {
    private static final long serialVersionUID = 1L;

    BlockedHere(String thread) {
      super("the stack of " + thread + " when it was found held");
    }
  }
}
