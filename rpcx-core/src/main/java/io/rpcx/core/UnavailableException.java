package io.rpcx.core;

/**
 * The call could not be completed because the server was not reachable or stopped serving it
 * ({@link StatusCode#UNAVAILABLE}): the connection could not be opened, was lost, or the server was
 * shutting down.
 *
 * <p>{@link #isSafeToRetry()} is {@code true} when RPCX knows the server never ran the call (it was
 * never written, or the server refused it after announcing shutdown); such a call can be retried
 * elsewhere even if it is not idempotent. Made by {@link #notProcessed} and {@link #mayHaveRun},
 * which say which it is:
 *
 * <pre>{@code
 * throw UnavailableException.notProcessed("the payments database is in maintenance");
 * }</pre>
 */
public final class UnavailableException extends RpcxException {
  private static final long serialVersionUID = 1L;

  private final boolean safeToRetry;

  private UnavailableException(String message, boolean safeToRetry, Throwable cause) {
    super(StatusCode.UNAVAILABLE, message, cause);
    this.safeToRetry = safeToRetry;
  }

  /** A call the server certainly did not process: retrying it cannot run it twice. */
  public static UnavailableException notProcessed(String message) {
    return new UnavailableException(message, true, null);
  }

  /** A call the server certainly did not process, because of {@code cause}. */
  public static UnavailableException notProcessed(String message, Throwable cause) {
    return new UnavailableException(message, true, cause);
  }

  /**
   * A call that may have run on the server (it was sent, and then the connection was lost, for
   * example): only an idempotent method may be retried.
   */
  public static UnavailableException mayHaveRun(String message, Throwable cause) {
    return new UnavailableException(message, false, cause);
  }

  /** Whether the server certainly did not process the call, so that retrying cannot run it twice. */
  public boolean isSafeToRetry() {
    return safeToRetry;
  }
}
