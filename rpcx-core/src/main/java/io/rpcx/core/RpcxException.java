package io.rpcx.core;

/**
 * Base class of every failure of an RPCX call. Each subclass stands for one {@link StatusCode}, so
 * callers can catch exactly the failures they can handle:
 *
 * <ul>
 *   <li>{@link CallTimeoutException}: no reply within the call's timeout;
 *   <li>{@link UnavailableException}: cannot connect, connection lost, or the server refused the call
 *       ({@link UnavailableException#isSafeToRetry()} tells whether it certainly did not run);
 *   <li>{@link NotFoundException}: the server publishes no such service or method;
 *   <li>{@link RemoteFailureException}: the implementation threw an exception;
 *   <li>{@link BadRequestException}: the arguments could not be encoded or decoded;
 *   <li>{@link ResourceExhaustedException}: a limit was reached;
 *   <li>{@link UnauthenticatedException}: no valid credentials;
 *   <li>{@link InternalErrorException}: the peer broke the protocol;
 *   <li>{@link CancelledException}: the caller gave up.
 * </ul>
 *
 * <p>Messages name the service, the method and the server address. Instances are immutable. An
 * interceptor that refuses a call with a status of its choice makes the exception with {@link
 * #of}:
 *
 * <pre>{@code
 * throw RpcxException.of(StatusCode.RESOURCE_EXHAUSTED, "tenant " + tenant + " is over its quota");
 * }</pre>
 */
public abstract class RpcxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final StatusCode status;

  protected RpcxException(StatusCode status, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /**
   * An exception without a stack trace when {@code stackTrace} is false: for failures noticed on
   * RPCX's own threads, whose stack says nothing about the call, when thousands may happen at once.
   */
  protected RpcxException(StatusCode status, String message, Throwable cause, boolean stackTrace) {
    super(message, cause, true, stackTrace);
    this.status = status;
  }

  /**
   * The exception of {@code status}, saying {@code message}: a refusal, so {@code UNAVAILABLE} is
   * {@linkplain UnavailableException#notProcessed not processed}; {@code REMOTE_FAILURE} names no
   * exception class; {@code OK} reads as an internal error, as from a peer.
   */
  public static RpcxException of(StatusCode status, String message) {
    switch (status) {
      case BAD_REQUEST:
        return new BadRequestException(message);
      case NOT_FOUND:
        return new NotFoundException(message);
      case TIMEOUT:
        return new CallTimeoutException(message);
      case UNAVAILABLE:
        return UnavailableException.notProcessed(message);
      case REMOTE_FAILURE:
        return new RemoteFailureException(message, "");
      case RESOURCE_EXHAUSTED:
        return new ResourceExhaustedException(message);
      case UNAUTHENTICATED:
        return new UnauthenticatedException(message);
      case CANCELLED:
        return new CancelledException(message, null);
      case OK:
      case INTERNAL:
      default:
        return new InternalErrorException(message, null);
    }
  }

  /** The status code this failure stands for. */
  public StatusCode status() {
    return status;
  }
}
