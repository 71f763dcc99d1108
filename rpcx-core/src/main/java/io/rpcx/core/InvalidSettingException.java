package io.rpcx.core;

/**
 * A value a builder refused: names the setting, the value given and what the setting accepts, so
 * that a tool setting values for its users (the Spring Boot starter, a command line) reports the
 * refusal in its own terms, reading {@link #setting()}, {@link #value()} and {@link #expected()}
 * instead of the message. The message reads {@code "setting: value (expected: what)"}, a string
 * value in single quotes: {@code "workerThreads: 0 (expected: >= 1)"}, {@code "endpoint:
 * 'localhost' (expected: host:port)"}.
 *
 * <p>Thrown at once by the setter given the value (by {@code RpcxServer.Builder}, {@code
 * RpcxClient.Builder}, {@link TlsConfig.Builder} and the other builders of RPCX), never later by
 * {@code build()}: a value that only conflicts with another setting is refused there with a plain
 * {@link IllegalArgumentException} naming both. Code that catches {@link
 * IllegalArgumentException} catches this too.
 */
public final class InvalidSettingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String setting;
  /** Whatever was given, which need not be serializable. */
  private final transient Object value;
  private final String expected;

  /**
   * {@code setting} refused {@code value}; {@code expected} describes what it accepts ({@code ">=
   * 1"}, {@code "host:port"}).
   */
  public InvalidSettingException(String setting, Object value, String expected) {
    this(
        setting,
        value,
        value instanceof String ? "'" + value + "'" : String.valueOf(value),
        expected);
  }

  /**
   * As {@link #InvalidSettingException(String, Object, String)}, the message showing the value as
   * {@code shown}: what is wrong with it ({@code "0 characters"}, {@code "a client
   * configuration"}), or a printable form of it.
   */
  public InvalidSettingException(String setting, Object value, String shown, String expected) {
    super(setting + ": " + shown + " (expected: " + expected + ")");
    this.setting = setting;
    this.value = value;
    this.expected = expected;
  }

  /**
   * The setting, named as the builder's method or parameter names it: {@code "workerThreads"},
   * {@code "maxStreamWindow"}, {@code "endpoint"}, {@code "metadata key"}.
   */
  public String setting() {
    return setting;
  }

  /** The value refused, as given; {@code null} after the exception was deserialized. */
  public Object value() {
    return value;
  }

  /** What the setting accepts, as the message words it after "expected: ". */
  public String expected() {
    return expected;
  }
}
