package io.rpcx.server.internal.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * One WARN line per interval for a refusal that a flood repeats (10,000 silent sockets would
 * otherwise write 10,000 lines): the first refusal of an interval is logged, the others are
 * counted and the count goes with the next line logged. Thread-safe.
 */
final class RefusalLog {
  private final Logger logger;
  private final long intervalNanos;
  private final AtomicLong nextNanos = new AtomicLong(System.nanoTime());
  private final AtomicInteger unlogged = new AtomicInteger();

  RefusalLog(Logger logger, long interval, TimeUnit unit) {
    this.logger = logger;
    this.intervalNanos = unit.toNanos(interval);
  }

  /** Logs {@code "Refusing connection from <remote>: <why>"}, or counts it for the next line. */
  void refused(Object remote, String why) {
    long now = System.nanoTime();
    long next = nextNanos.get();
    if (now - next < 0 || !nextNanos.compareAndSet(next, now + intervalNanos)) {
      unlogged.incrementAndGet();
      return;
    }
    int others = unlogged.getAndSet(0);
    if (others == 0) {
      logger.warn("Refusing connection from {}: {}", remote, why);
    } else {
      logger.warn(
          "Refusing connection from {}: {} ({} more connections refused for this reason or"
              + " another since the last line like this)",
          remote,
          why,
          others);
    }
  }
}
