package io.rpcx.client.internal.transport;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Exponential reconnect backoff with jitter, as gRPC's connection backoff: the first retry waits
 * the initial delay, each further one 1.6 times longer up to the maximum, each randomized by ±20%.
 * Not thread-safe: its user guards it.
 */
public final class Backoff {
  static final double MULTIPLIER = 1.6;
  static final double JITTER = 0.2;

  private final long initialNanos;
  private final long maxNanos;
  private long nextNanos;

  public Backoff(long initialMillis, long maxMillis) {
    this.initialNanos = TimeUnit.MILLISECONDS.toNanos(initialMillis);
    this.maxNanos = TimeUnit.MILLISECONDS.toNanos(maxMillis);
    this.nextNanos = initialNanos;
  }

  /** The delay before the next attempt, then grows the one after it. */
  public long nextDelayNanos() {
    long base = nextNanos;
    nextNanos = Math.min(maxNanos, (long) (nextNanos * MULTIPLIER));
    double jitter = 1 + JITTER * (2 * ThreadLocalRandom.current().nextDouble() - 1);
    return (long) (base * jitter);
  }

  /** Starts over after a success. */
  public void reset() {
    nextNanos = initialNanos;
  }
}
