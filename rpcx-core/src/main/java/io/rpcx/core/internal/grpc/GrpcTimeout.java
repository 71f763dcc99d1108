package io.rpcx.core.internal.grpc;

/**
 * The {@code grpc-timeout} header: a positive integer of at most 8 digits and a unit ({@code H},
 * {@code M}, {@code S}, {@code m}, {@code u}, {@code n}), as gRPC's HTTP/2 protocol defines it.
 */
public final class GrpcTimeout {
  /** The largest value gRPC allows: 8 digits. */
  private static final long MAX_VALUE = 99_999_999L;

  private GrpcTimeout() {}

  /**
   * The timeout in milliseconds (a timeout under 1 ms, zero included, is 1 ms: it has passed by the
   * time the call runs), or -1 when {@code header} is not a valid {@code grpc-timeout}.
   */
  public static long parseMillis(CharSequence header) {
    int length = header.length();
    if (length < 2 || length > 9) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < length - 1; i++) {
      char c = header.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    long millis;
    switch (header.charAt(length - 1)) {
      case 'H' -> millis = value * 3_600_000L;
      case 'M' -> millis = value * 60_000L;
      case 'S' -> millis = value * 1_000L;
      case 'm' -> millis = value;
      case 'u' -> millis = value / 1_000L;
      case 'n' -> millis = value / 1_000_000L;
      default -> {
        return -1;
      }
    }
    return Math.max(1, millis); // "0m" or "300u": a deadline already (or all but) passed
  }

  /** {@code millis} (positive) as a {@code grpc-timeout} value, in the finest unit that fits. */
  public static String format(long millis) {
    if (millis <= MAX_VALUE) {
      return millis + "m";
    }
    long seconds = ceilDiv(millis, 1_000);
    if (seconds <= MAX_VALUE) {
      return seconds + "S";
    }
    return Math.min(MAX_VALUE, ceilDiv(seconds, 3_600)) + "H";
  }

  /** {@code a / b} rounded up, for positive numbers, without overflowing near Long.MAX_VALUE. */
  private static long ceilDiv(long a, long b) {
    return a / b + (a % b == 0 ? 0 : 1);
  }
}
