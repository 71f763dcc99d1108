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
   * The timeout in milliseconds (a timeout under 1 ms is 1 ms), or -1 when {@code header} is not a
   * valid {@code grpc-timeout}.
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
    long nanos;
    switch (header.charAt(length - 1)) {
      case 'H':
        return value * 3_600_000L;
      case 'M':
        return value * 60_000L;
      case 'S':
        return value * 1_000L;
      case 'm':
        return value;
      case 'u':
        nanos = value * 1_000L;
        break;
      case 'n':
        nanos = value;
        break;
      default:
        return -1;
    }
    return Math.max(1, nanos / 1_000_000L);
  }

  /** {@code millis} (positive) as a {@code grpc-timeout} value, in the finest unit that fits. */
  public static String format(long millis) {
    if (millis <= MAX_VALUE) {
      return millis + "m";
    }
    long seconds = (millis + 999) / 1_000;
    if (seconds <= MAX_VALUE) {
      return seconds + "S";
    }
    return Math.min(MAX_VALUE, (seconds + 3_599) / 3_600) + "H";
  }
}
