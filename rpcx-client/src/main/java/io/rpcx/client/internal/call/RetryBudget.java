package io.rpcx.client.internal.call;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Limits retries to a share of recent calls, as Finagle's retry budget does: over the last {@value
 * #WINDOW_SECONDS} seconds, retries may be at most {@code ratio} times the calls made, plus {@code
 * minPerSecond} per second so that a client making few calls can still retry. The check and the
 * count are not one atomic step, so concurrent retries may overshoot the budget by a few. When the servers are
 * failing, retries stop at that share instead of multiplying the load. Thread-safe; a call costs one
 * uncontended counter increment.
 */
public final class RetryBudget {
  static final int WINDOW_SECONDS = 10;

  private final double ratio;
  private final long reserve;
  private final Bucket[] buckets = new Bucket[WINDOW_SECONDS];

  /** One second of the window. */
  private static final class Bucket {
    volatile long second = Long.MIN_VALUE;
    final LongAdder calls = new LongAdder();
    final LongAdder retries = new LongAdder();
  }

  public RetryBudget(double ratio, int minPerSecond) {
    if (!(ratio >= 0) || ratio > 1000 || minPerSecond < 0) {
      throw new IllegalArgumentException(
          "retry budget: ratio " + ratio + ", minPerSecond " + minPerSecond
              + " (expected: ratio 0-1000, minPerSecond >= 0)");
    }
    this.ratio = ratio;
    this.reserve = (long) minPerSecond * WINDOW_SECONDS;
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = new Bucket();
    }
  }

  /** Counts a call (not a retry) made at {@code nowNanos}. */
  public void called(long nowNanos) {
    current(nowNanos).calls.increment();
  }

  /** Takes a retry from the budget if there is one left. */
  public boolean tryRetry(long nowNanos) {
    long second = TimeUnit.NANOSECONDS.toSeconds(nowNanos);
    long calls = 0;
    long retries = 0;
    for (Bucket bucket : buckets) {
      long age = second - bucket.second;
      if (age >= 0 && age < WINDOW_SECONDS) {
        calls += bucket.calls.sum();
        retries += bucket.retries.sum();
      }
    }
    if (retries >= ratio * calls + reserve) {
      return false;
    }
    current(nowNanos).retries.increment();
    return true;
  }

  private Bucket current(long nowNanos) {
    long second = TimeUnit.NANOSECONDS.toSeconds(nowNanos);
    Bucket bucket = buckets[(int) Math.floorMod(second, (long) WINDOW_SECONDS)];
    if (bucket.second != second) {
      synchronized (bucket) {
        if (bucket.second != second) {
          bucket.calls.reset();
          bucket.retries.reset();
          bucket.second = second;
        }
      }
    }
    return bucket;
  }
}
