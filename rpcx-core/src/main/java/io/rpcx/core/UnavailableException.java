package io.rpcx.core;

/**
 * The call could not be completed because the server was not reachable or stopped serving it
 * ({@link StatusCode#UNAVAILABLE}): the connection could not be opened, was lost, or the server was
 * shutting down.
 *
 * <p>{@link #isSafeToRetry()} is {@code true} when RPCX knows the server never ran the call (it was
 * never written, or the server refused it after announcing shutdown); such a call can be retried
 * elsewhere even if it is not idempotent.
 */
public final class UnavailableException extends RpcxException {
  private static final long serialVersionUID = 1L;

  private final boolean safeToRetry;

  public UnavailableException(String message, boolean safeToRetry, Throwable cause) {
    super(StatusCode.UNAVAILABLE, message, cause);
    this.safeToRetry = safeToRetry;
  }

  /** Whether the server certainly did not process the call, so that retrying cannot run it twice. */
  public boolean isSafeToRetry() {
    return safeToRetry;
  }
}
