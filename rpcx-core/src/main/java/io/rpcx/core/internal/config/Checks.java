package io.rpcx.core.internal.config;

import io.rpcx.core.InvalidSettingException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The argument checks the builders share, each refusing a value with an {@link
 * InvalidSettingException}: {@code "name: value (expected: ...)"}.
 */
public final class Checks {
  private Checks() {}

  /** {@code value}, if it is at least {@code min}. */
  public static int atLeast(int value, int min, String name) {
    if (value < min) {
      throw new InvalidSettingException(name, value, ">= " + min);
    }
    return value;
  }

  /** {@code value}, if it is at least {@code min}. */
  public static long atLeast(long value, long min, String name) {
    if (value < min) {
      throw new InvalidSettingException(name, value, ">= " + min);
    }
    return value;
  }

  /** {@code duration}, if it is longer than zero. */
  public static Duration positive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new InvalidSettingException(name, duration, "> 0");
    }
    return duration;
  }

  /** {@code duration}, if it is not negative. */
  public static Duration nonNegative(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative()) {
      throw new InvalidSettingException(name, duration, ">= 0");
    }
    return duration;
  }

  /** A TCP port, 0 to 65535. */
  public static int port(int port, String name) {
    if (port < 0 || port > 65535) {
      throw new InvalidSettingException(name, port, "0-65535");
    }
    return port;
  }

  /** A metadata key: lower-case, not empty. */
  public static String metadataKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty() || !key.equals(key.toLowerCase(Locale.ROOT))) {
      throw new InvalidSettingException("metadata key", key, "lower-case, not empty");
    }
    return key;
  }
}
