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
