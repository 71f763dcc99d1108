package io.rpcx.cli;

import io.rpcx.core.StatusCode;

/**
 * The exit codes of {@code rpcx}: one per outcome a script may want to tell apart. The table is
 * printed by {@code rpcx --help} and documented in the README.
 */
final class ExitCodes {
  /** The command did what it was asked. */
  static final int OK = 0;
  /** An unexpected failure of rpcx itself (a bug: it prints the stack trace). */
  static final int SOFTWARE = 1;
  /** A mistake in the command line or its input: an option, an address, JSON, a file. */
  static final int USAGE = 2;
  /** The server could not be reached: refused, unreachable, or the TLS handshake failed. */
  static final int CONNECT = 3;
  /**
   * Interrupted by Ctrl-C (SIGINT), as a shell reports a process the signal ended: 128 + 2. A load
   * test prints the summary of what ran first.
   */
  static final int INTERRUPTED = 130;
  /** Exit code of status {@code n} of {@link StatusCode}: 10 + n. */
  private static final int STATUS_BASE = 10;

  private ExitCodes() {}

  /** The exit code of a call that failed with {@code status}. */
  static int of(StatusCode status) {
    return STATUS_BASE + status.number();
  }

  /** The table, for {@code --help}. */
  static String table() {
    StringBuilder text = new StringBuilder();
    text.append(String.format("  %3d  %s%n", OK, "OK"));
    text.append(String.format("  %3d  %s%n", SOFTWARE, "rpcx itself failed (a bug)"));
    text.append(String.format("  %3d  %s%n", USAGE,
        "usage: a bad option, address, file or JSON argument"));
    text.append(String.format("  %3d  %s%n", CONNECT,
        "cannot connect: refused, unreachable, TLS handshake failed"));
    for (StatusCode status : StatusCode.values()) {
      if (status != StatusCode.OK) {
        text.append(String.format("  %3d  %s%n", of(status), status));
      }
    }
    text.append(String.format("  %3d  %s%n", INTERRUPTED,
        "interrupted (Ctrl-C); bench prints the summary of what ran first"));
    return text.toString();
  }
}
