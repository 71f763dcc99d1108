package io.rpcx.core.internal.protocol;

import io.rpcx.core.BadRequestException;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnauthenticatedException;
import io.rpcx.core.UnavailableException;

/** The typed exception that stands for each status code a peer sends. */
public final class Failures {
  private Failures() {}

  /**
   * The exception of {@code status}, as received from a peer. {@code exceptionClass} is only used
   * by {@link StatusCode#REMOTE_FAILURE}; {@code OK} and unknown codes read as an internal error.
   */
  public static RpcxException of(StatusCode status, String message, String exceptionClass) {
    switch (status) {
      case BAD_REQUEST:
        return new BadRequestException(message);
      case NOT_FOUND:
        return new NotFoundException(message);
      case TIMEOUT:
        return new CallTimeoutException(message);
      case UNAVAILABLE:
        return new UnavailableException(message, false, null);
      case REMOTE_FAILURE:
        return new RemoteFailureException(message, exceptionClass);
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
}
