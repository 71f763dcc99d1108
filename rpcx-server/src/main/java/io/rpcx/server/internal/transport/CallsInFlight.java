package io.rpcx.server.internal.transport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls in flight on one server connection, under its limit of concurrent calls. Any thread
 * may use it: workers finish calls while the event loop starts new ones.
 *
 * <p>A call holds its place under the limit until it is answered, which is just before its last
 * frame is queued: a client that starts its next call the moment it reads a reply finds the place
 * free, whichever thread runs first. The call stays counted as unfinished until that frame is
 * queued, so that a connection closing after its last call (GOAWAY, idleness) waits for it.
 */
final class CallsInFlight {
  private final int limit;
  /** Calls started and not answered: at most {@link #limit}. */
  private final AtomicInteger unanswered = new AtomicInteger();
  /** Calls started and not finished: at least {@link #unanswered}. */
  private final AtomicInteger unfinished = new AtomicInteger();

  CallsInFlight(int limit) {
    this.limit = limit;
  }

  /** Counts a new call; false, counting nothing, if that would pass the limit. */
  boolean tryStart() {
    while (true) {
      int current = unanswered.get();
      if (current >= limit) {
        return false;
      }
      if (unanswered.compareAndSet(current, current + 1)) {
        unfinished.incrementAndGet();
        return true;
      }
    }
  }

  /** A call counted by {@link #tryStart()} is about to send its last frame: its place is free. */
  void answered() {
    unanswered.decrementAndGet();
  }

  /**
   * A call counted by {@link #tryStart()}, and {@link #answered()} before, has queued its last
   * frame; true if it was the last one unfinished.
   */
  boolean finish() {
    return unfinished.decrementAndGet() == 0;
  }

  /** Calls started and not finished. */
  int count() {
    return unfinished.get();
  }

  int limit() {
    return limit;
  }
}
