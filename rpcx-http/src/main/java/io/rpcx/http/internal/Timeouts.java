package io.rpcx.http.internal;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them: {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m}, {@code
 * 1h}, or ISO-8601's {@code PT30S}. The {@code rpcx-timeout} header of an HTTP call, and the
 * command line's {@code --timeout}. Stateless.
 */
public final class Timeouts {
  private static final Pattern SHORT = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

  private Timeouts() {}

  /** The duration {@code text} stands for (positive), or {@code null} if it is not one. */
  public static Duration parse(String text) {
    String trimmed = text.strip();
    Matcher matcher = SHORT.matcher(trimmed);
    Duration duration = null;
    if (matcher.matches()) {
      BigDecimal amount = new BigDecimal(matcher.group(1));
      BigDecimal millis =
          switch (matcher.group(2)) {
            case "ms" -> amount;
            case "s" -> amount.movePointRight(3);
            case "m" -> amount.multiply(BigDecimal.valueOf(60_000));
            default -> amount.multiply(BigDecimal.valueOf(3_600_000));
          };
      try {
        duration = Duration.ofNanos(millis.movePointRight(6).longValueExact());
      } catch (ArithmeticException e) {
        // past 292 years, or a fraction of a nanosecond: not a duration here
      }
    } else {
      try {
        duration = Duration.parse(trimmed);
      } catch (DateTimeParseException e) {
        // not a duration
      }
    }
    return duration == null || duration.isNegative() || duration.isZero() ? null : duration;
  }

  /** What {@link #parse} takes, for messages. */
  public static final String EXPECTED = "such as 500ms, 10s, 1.5s, 2m or PT30S";
}
