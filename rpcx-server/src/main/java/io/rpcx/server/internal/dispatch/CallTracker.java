package io.rpcx.server.internal.dispatch;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the calls a server has accepted and not yet answered, so that a graceful stop can wait for
 * them. Thread-safe; counting a call is one atomic add (the event loop and every worker thread count
 * here), and only the last call to finish while a stop waits takes the monitor.
 */
public final class CallTracker {
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile boolean awaited;

  void started() {
    inFlight.incrementAndGet();
  }

  void finished() {
    if (inFlight.decrementAndGet() == 0 && awaited) {
      synchronized (this) {
        notifyAll();
      }
    }
  }

  /** Calls accepted and not yet answered. */
  public int inFlight() {
    return inFlight.get();
  }

  /** Waits until no call is in flight or {@code deadlineNanos} (a {@link System#nanoTime()}) passes. */
  public synchronized boolean awaitIdle(long deadlineNanos) throws InterruptedException {
    awaited = true;
    while (inFlight.get() > 0) {
      long remaining = deadlineNanos - System.nanoTime();
      if (remaining <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, remaining);
    }
    return true;
  }
}
