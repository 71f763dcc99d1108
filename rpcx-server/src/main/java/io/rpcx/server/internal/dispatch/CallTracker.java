package io.rpcx.server.internal.dispatch;

import java.util.concurrent.TimeUnit;

/**
 * Counts the calls a server has accepted and not yet answered, so that a graceful stop can wait for
 * them. Thread-safe.
 */
public final class CallTracker {
  private int inFlight;

  synchronized void started() {
    inFlight++;
  }

  synchronized void finished() {
    if (--inFlight == 0) {
      notifyAll();
    }
  }

  /** Calls accepted and not yet answered. */
  public synchronized int inFlight() {
    return inFlight;
  }

  /** Waits until no call is in flight or {@code deadlineNanos} (a {@link System#nanoTime()}) passes. */
  public synchronized boolean awaitIdle(long deadlineNanos) throws InterruptedException {
    while (inFlight > 0) {
      long remaining = deadlineNanos - System.nanoTime();
      if (remaining <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, remaining);
    }
    return true;
  }
}
