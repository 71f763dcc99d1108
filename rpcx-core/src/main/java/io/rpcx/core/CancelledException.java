package io.rpcx.core;

/**
 * The caller gave up on the call ({@link StatusCode#CANCELLED}): the waiting thread was interrupted
 * (its interrupt flag is set again) or the call's future was cancelled. The call may or may not have
 * run on the server.
 */
public final class CancelledException extends RpcxException {
  private static final long serialVersionUID = 1L;

  public CancelledException(String message, Throwable cause) {
    super(StatusCode.CANCELLED, message, cause);
  }
}
