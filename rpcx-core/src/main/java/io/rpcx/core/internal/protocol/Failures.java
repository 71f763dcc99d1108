package io.rpcx.core.internal.protocol;

import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;

/**
 * The typed exception that stands for each status code a peer sends: the one mapping, which the
 * caller and the interceptors both see.
 */
public final class Failures {
  private Failures() {}

  /**
   * The exception of {@code status}, as received from a peer that answered a call: {@code started}
   * says whether the call had started (a stream that sent or took messages) before it ended so. A
   * peer answers {@code UNAVAILABLE} only for calls it refused before running them (shutting
   * down), so such a call is safe to retry unless it had started. {@code exceptionClass} is only
   * used by {@link StatusCode#REMOTE_FAILURE}; the rest is {@link RpcxException#of}.
   */
  public static RpcxException of(
      StatusCode status, String message, String exceptionClass, boolean started) {
    if (status == StatusCode.UNAVAILABLE && started) {
      return UnavailableException.mayHaveRun(message, null);
    }
    if (status == StatusCode.REMOTE_FAILURE) {
      return new RemoteFailureException(message, exceptionClass);
    }
    return RpcxException.of(status, message);
  }
}
