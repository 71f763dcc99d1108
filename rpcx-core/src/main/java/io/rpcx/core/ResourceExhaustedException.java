package io.rpcx.core;

/**
 * A limit was reached and the call was rejected at once rather than queued ({@link
 * StatusCode#RESOURCE_EXHAUSTED}): too many calls in flight on a connection, a full server queue, or
 * a frame over the size limit.
 */
public final class ResourceExhaustedException extends RpcxException {
  private static final long serialVersionUID = 1L;

  public ResourceExhaustedException(String message) {
    super(StatusCode.RESOURCE_EXHAUSTED, message, null);
  }
}
