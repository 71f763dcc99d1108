package io.rpcx.core.internal.protocol;

import io.rpcx.core.StatusCode;

/**
 * A frame payload that breaks the protocol. Carries the request id when it could be read, so that
 * the server can answer that one call instead of closing the connection, and the status to answer
 * with.
 */
public final class ProtocolException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Marks that no request id could be read. */
  public static final long NO_REQUEST_ID = -1;

  private final long requestId;
  private final StatusCode status;

  public ProtocolException(long requestId, StatusCode status, String message, Throwable cause) {
    super(message, cause);
    this.requestId = requestId;
    this.status = status;
  }

  /** The request id read before the problem, or {@link #NO_REQUEST_ID}. */
  public long requestId() {
    return requestId;
  }

  public StatusCode status() {
    return status;
  }
}
