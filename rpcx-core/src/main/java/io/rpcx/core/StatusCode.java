package io.rpcx.core;

/**
 * The outcome of a call, as carried on the wire. Every {@link RpcxException} has one.
 *
 * <p>The numeric values are part of the protocol (docs/PROTOCOL.md) and never change.
 */
public enum StatusCode {
  /** The call succeeded. */
  OK(0),
  /** The request could not be encoded or decoded, or does not match the method's signature. */
  BAD_REQUEST(1),
  /** The server publishes no such service or method. */
  NOT_FOUND(2),
  /** The call's timeout elapsed before a reply arrived. */
  TIMEOUT(3),
  /** The server could not be reached, the connection was lost, or the server refused new calls. */
  UNAVAILABLE(4),
  /** The service implementation threw an exception. */
  REMOTE_FAILURE(5),
  /** A limit was reached: concurrent calls, queued work, frame size. */
  RESOURCE_EXHAUSTED(6),
  /** The call carried no valid credentials. */
  UNAUTHENTICATED(7),
  /** The peer broke the protocol or could not encode its answer. */
  INTERNAL(8),
  /** The caller gave up: its thread was interrupted or it cancelled the future. */
  CANCELLED(9);

  private static final StatusCode[] BY_NUMBER = values();

  private final int number;

  StatusCode(int number) {
    this.number = number;
  }

  /** The code's number on the wire. */
  public int number() {
    return number;
  }

  /** The code with this wire number; unknown numbers (from a newer peer) map to {@link #INTERNAL}. */
  public static StatusCode forNumber(int number) {
    return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : INTERNAL;
  }
}
