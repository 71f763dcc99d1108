package io.rpcx.interop;

/** The exception {@link InteropService#failDeclared} declares. */
public class InteropException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message}. */
  public InteropException(String message) {
    super(message);
  }
}
