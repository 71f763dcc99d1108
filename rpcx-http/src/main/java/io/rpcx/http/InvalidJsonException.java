package io.rpcx.http;

/**
 * JSON that does not fit where it was given: not valid JSON, not of the type a parameter or field
 * takes, an unknown field, a wrong number of arguments. The message names where and what was
 * expected, in one line: {@code argument 'order' field 'items[2].quantity': expected int32, got
 * "three"}. The HTTP side answers it with 400, the command line with exit code 2. Immutable.
 */
public final class InvalidJsonException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An exception saying {@code message}; no stack trace: it is the user's input, not a bug. */
  public InvalidJsonException(String message) {
    super(message, null, false, false);
  }
}
