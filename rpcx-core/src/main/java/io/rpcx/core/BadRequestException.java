package io.rpcx.core;

/**
 * The arguments or the result could not be encoded or decoded, or do not match the method's
 * signature ({@link StatusCode#BAD_REQUEST}). Raised on the client before anything is sent when a
 * value cannot be encoded, and by the server when a request cannot be decoded.
 */
public final class BadRequestException extends RpcxException {
  private static final long serialVersionUID = 1L;

  public BadRequestException(String message) {
    super(StatusCode.BAD_REQUEST, message, null);
  }

  public BadRequestException(String message, Throwable cause) {
    super(StatusCode.BAD_REQUEST, message, cause);
  }
}
