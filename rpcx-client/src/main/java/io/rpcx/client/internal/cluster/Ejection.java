package io.rpcx.client.internal.cluster;

/**
 * When a server that keeps failing is taken out of rotation: after {@code consecutiveFailures}
 * calls in a row that could not reach it or timed out, for a backoff that starts at {@code
 * initialMillis} and grows 1.6 times with each ejection in a row up to {@code maxMillis}, each
 * randomized by ±20%. Immutable.
 */
public final class Ejection {
  final int consecutiveFailures;
  final long initialMillis;
  final long maxMillis;

  public Ejection(int consecutiveFailures, long initialMillis, long maxMillis) {
    if (consecutiveFailures < 1) {
      throw new IllegalArgumentException(
          "consecutiveFailures: " + consecutiveFailures + " (expected: >= 1)");
    }
    if (initialMillis < 1 || maxMillis < initialMillis) {
      throw new IllegalArgumentException(
          "ejection backoff: " + initialMillis + " ms to " + maxMillis
              + " ms (expected: 1 <= initial <= max)");
    }
    this.consecutiveFailures = consecutiveFailures;
    this.initialMillis = initialMillis;
    this.maxMillis = maxMillis;
  }
}
