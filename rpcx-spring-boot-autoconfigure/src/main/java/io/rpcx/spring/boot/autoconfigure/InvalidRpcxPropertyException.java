package io.rpcx.spring.boot.autoconfigure;

/**
 * A {@code rpcx.*} property whose value RPCX does not accept; {@link
 * InvalidRpcxPropertyFailureAnalyzer} turns it into the start-up failure report.
 */
final class InvalidRpcxPropertyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String property;
  private final String value;
  private final String accepted;
  private final String description;
  private final String action;

  /**
   * {@code property} has {@code value}, which is not among {@code accepted} (a description: "&gt;=
   * 1", "host:port").
   */
  InvalidRpcxPropertyException(
      String property, Object value, String accepted, Throwable cause) {
    super(property + ": " + value + " (expected: " + accepted + ")", cause);
    this.property = property;
    this.value = String.valueOf(value);
    this.accepted = accepted;
    this.description = null;
    this.action = null;
  }

  /** {@code property} is wrong in a way its value does not tell: {@code description}, {@code action}. */
  InvalidRpcxPropertyException(String property, String description, String action) {
    super(property + ": " + description);
    this.property = property;
    this.value = null;
    this.accepted = null;
    this.description = description;
    this.action = action;
  }

  /** What is wrong, when it is not the value; {@code null} for a bad value. */
  String description() {
    return description;
  }

  /** What to do, when the trouble is not the value. */
  String action() {
    return action;
  }

  /** The property's full name, {@code rpcx.server.worker-threads} say. */
  String property() {
    return property;
  }

  /** The value it had. */
  String value() {
    return value;
  }

  /** What it accepts. */
  String accepted() {
    return accepted;
  }
}
