package io.rpcx.client.internal.config;

import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.internal.config.Checks;
import java.util.List;

/**
 * When a server that keeps failing is taken out of rotation: after {@code consecutiveFailures}
 * calls in a row that could not reach it or timed out, for at least a backoff that starts at
 * {@code initialMillis} and grows 1.6 times each time it is ejected again within {@code maxMillis}
 * of coming back, up to {@code maxMillis}, each randomized by ±20%. Meanwhile it is probed in the
 * background every {@link #probeIntervalMillis()}: the initial ejection time, at most {@value
 * #MAX_PROBE_INTERVAL_MILLIS} ms, so that a restarted server is found again quickly.
 */
public record Ejection(int consecutiveFailures, long initialMillis, long maxMillis) {
  /** The longest interval between two probes of an ejected server. */
  public static final long MAX_PROBE_INTERVAL_MILLIS = 500;

  /** Checks the values. */
  public Ejection {
    Checks.atLeast(consecutiveFailures, 1, "consecutiveFailures");
    if (initialMillis < 1 || maxMillis < initialMillis) {
      throw new InvalidSettingException(
          "ejection backoff",
          List.of(initialMillis, maxMillis),
          initialMillis + " ms to " + maxMillis + " ms",
          "1 <= initial <= max");
    }
  }

  /** How often an ejected server is probed. */
  public long probeIntervalMillis() {
    return Math.min(initialMillis, MAX_PROBE_INTERVAL_MILLIS);
  }
}
