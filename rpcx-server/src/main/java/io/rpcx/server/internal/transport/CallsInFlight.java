package io.rpcx.server.internal.transport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls in flight on one server connection, under its limit of concurrent calls. Any thread
 * may use it: workers finish calls while the event loop starts new ones.
 */
final class CallsInFlight {
  private final int limit;
  private final AtomicInteger count = new AtomicInteger();

  CallsInFlight(int limit) {
    this.limit = limit;
  }

  /** Counts a new call; false, counting nothing, if that would pass the limit. */
  boolean tryStart() {
    while (true) {
      int current = count.get();
      if (current >= limit) {
        return false;
      }
      if (count.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  /** A call counted by {@link #tryStart()} ended; true if it was the last one in flight. */
  boolean finish() {
    return count.decrementAndGet() == 0;
  }

  int count() {
    return count.get();
  }

  int limit() {
    return limit;
  }
}
