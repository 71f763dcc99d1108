package io.rpcx.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads durations as a shell user types them: {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m}. */
final class Durations implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern SHORT = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

  @Override
  public Duration convert(String text) {
    return parse(text);
  }

  /**
   * The duration {@code text} stands for.
   *
   * @throws CommandLine.TypeConversionException naming the text and the expected forms
   */
  static Duration parse(String text) {
    Matcher matcher = SHORT.matcher(text.strip());
    Duration duration = null;
    if (matcher.matches()) {
      BigDecimal amount = new BigDecimal(matcher.group(1));
      BigDecimal millis;
      switch (matcher.group(2)) {
        case "ms":
          millis = amount;
          break;
        case "s":
          millis = amount.movePointRight(3);
          break;
        case "m":
          millis = amount.multiply(BigDecimal.valueOf(60_000));
          break;
        default:
          millis = amount.multiply(BigDecimal.valueOf(3_600_000));
          break;
      }
      try {
        duration = Duration.ofNanos(millis.movePointRight(6).longValueExact());
      } catch (ArithmeticException e) {
        // past 292 years, or a fraction of a nanosecond: reported below
      }
    } else {
      try {
        duration = Duration.parse(text.strip());
      } catch (DateTimeParseException e) {
        // reported below
      }
    }
    if (duration == null || duration.isNegative() || duration.isZero()) {
      throw new CommandLine.TypeConversionException(
          "'" + text + "' is not a duration (expected: such as 500ms, 10s, 1.5s, 2m or PT30S)");
    }
    return duration;
  }
}
