package io.rpcx.core;

/** The server publishes no service or method by the requested name ({@link StatusCode#NOT_FOUND}). */
public final class NotFoundException extends RpcxException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(String message) {
    super(StatusCode.NOT_FOUND, message, null);
  }
}
