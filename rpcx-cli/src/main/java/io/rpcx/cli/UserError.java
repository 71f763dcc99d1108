package io.rpcx.cli;

/**
 * Something the user typed or the server answered that ends a command: printed as one line on
 * stderr, never with a stack trace, and the process exits with {@link #exitCode()}.
 */
final class UserError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  UserError(int exitCode, String message) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  /** A mistake in the command line or its input: exit code {@value ExitCodes#USAGE}. */
  static UserError usage(String message) {
    return new UserError(ExitCodes.USAGE, message);
  }

  int exitCode() {
    return exitCode;
  }
}
