package io.rpcx.core;

/**
 * The peer broke the protocol or failed in a way that is not the caller's fault ({@link
 * StatusCode#INTERNAL}): an undecodable reply, a server that could not encode its result.
 */
public final class InternalErrorException extends RpcxException {
  private static final long serialVersionUID = 1L;

  public InternalErrorException(String message, Throwable cause) {
    super(StatusCode.INTERNAL, message, cause);
  }
}
