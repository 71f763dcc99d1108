package io.rpcx.core;

/** The call carried no valid credentials ({@link StatusCode#UNAUTHENTICATED}). */
public final class UnauthenticatedException extends RpcxException {
  private static final long serialVersionUID = 1L;

  public UnauthenticatedException(String message) {
    super(StatusCode.UNAUTHENTICATED, message, null);
  }
}
