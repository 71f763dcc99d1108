package io.rpcx.core;

/**
 * No reply arrived within the call's timeout ({@link StatusCode#TIMEOUT}). The call may or may not
 * have run on the server; its reply, if one comes later, is discarded.
 */
public final class CallTimeoutException extends RpcxException {
  private static final long serialVersionUID = 1L;

  public CallTimeoutException(String message) {
    super(StatusCode.TIMEOUT, message, null);
  }
}
