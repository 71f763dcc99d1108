package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.core.InvalidSettingException;
import java.util.function.Consumer;
import org.springframework.util.unit.DataSize;

/**
 * Hands the values of one group of properties ({@code rpcx.server}, say) to a builder, and turns
 * the builder's refusal of a value ({@link InvalidSettingException}) into an {@link
 * InvalidRpcxPropertyException} that names the property: the builders check every value and say
 * what they accept, and the properties say which one was wrong. Each property is handed to the
 * setter it configures, so a refusal there is that property's.
 */
final class PropertyTarget {
  private final String prefix;

  PropertyTarget(String prefix) {
    this.prefix = prefix;
  }

  /** Gives {@code value} to {@code setter} unless it is null. */
  <T> void set(String property, T value, Consumer<T> setter) {
    if (value != null) {
      set(property, value, value, setter);
    }
  }

  /** Gives {@code converted}, the value of {@code property} as the builder takes it, to {@code setter}. */
  <T> void set(String property, Object value, T converted, Consumer<T> setter) {
    try {
      setter.accept(converted);
    } catch (InvalidSettingException e) {
      throw refused(property, value, e);
    }
  }

  /**
   * An exception for {@code property}, whose {@code value} RPCX refused with {@code refusal}: it
   * accepts what the refusal expected.
   */
  InvalidRpcxPropertyException refused(
      String property, Object value, InvalidSettingException refusal) {
    return invalid(property, value, refusal.expected(), refusal);
  }

  /** An exception for {@code property}, which has {@code value} where {@code accepted} was wanted. */
  InvalidRpcxPropertyException invalid(
      String property, Object value, String accepted, Throwable cause) {
    return new InvalidRpcxPropertyException(prefix + "." + property, value, accepted, cause);
  }

  /**
   * An exception for {@code property} whose trouble is not its value (a key that names nothing, a
   * setting missing): {@code description} says what is wrong, {@code action} what to do.
   */
  InvalidRpcxPropertyException problem(String property, String description, String action) {
    return new InvalidRpcxPropertyException(prefix + "." + property, description, action);
  }

  /** {@code size} in bytes, if it fits the int a builder takes. */
  int bytes(String property, DataSize size) {
    long bytes = size.toBytes();
    if (bytes > Integer.MAX_VALUE || bytes < 0) {
      throw invalid(property, size, "0B to " + Integer.MAX_VALUE + "B", null);
    }
    return (int) bytes;
  }
}
