package io.rpcx.cli;

/**
 * A server's {@code HOST:PORT} as typed on the command line ({@code [::1]:9000} for IPv6).
 *
 * @param host the host name or address, without brackets
 * @param port 1-65535
 */
record Address(String host, int port) {

  /**
   * Parses {@code text}.
   *
   * @throws UserError naming the text and the expected form
   */
  static Address parse(String text) {
    String trimmed = text.strip();
    int colon = trimmed.lastIndexOf(':');
    String host = colon < 0 ? "" : trimmed.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port = -1;
    if (colon >= 0) {
      try {
        port = Integer.parseInt(trimmed.substring(colon + 1));
      } catch (NumberFormatException e) {
        port = -1;
      }
    }
    if (host.isEmpty() || port < 1 || port > 65535 || host.contains(" ")) {
      throw UserError.usage(
          "bad address '" + text + "' (expected: HOST:PORT, such as localhost:9000)");
    }
    return new Address(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
