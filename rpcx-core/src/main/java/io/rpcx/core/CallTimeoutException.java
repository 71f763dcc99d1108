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

  /**
   * A timeout with a stack trace only if {@code stackTrace}: an asynchronous call's timeout is
   * noticed on RPCX's threads, whose stack says nothing about where the call was made, and
   * thousands may expire together.
   */
  public CallTimeoutException(String message, boolean stackTrace) {
    super(StatusCode.TIMEOUT, message, null, stackTrace);
  }
}
