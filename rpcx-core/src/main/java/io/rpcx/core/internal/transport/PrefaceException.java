package io.rpcx.core.internal.transport;

/** The peer did not start the connection with a valid RPCX preface. */
public final class PrefaceException extends Exception {
  private static final long serialVersionUID = 1L;

  public PrefaceException(String message) {
    super(message);
  }
}
