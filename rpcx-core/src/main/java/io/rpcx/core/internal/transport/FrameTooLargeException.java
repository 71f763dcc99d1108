package io.rpcx.core.internal.transport;

import io.netty.handler.codec.TooLongFrameException;

/** A frame header declared more bytes than the connection's limit. Nothing was allocated for it. */
public final class FrameTooLargeException extends TooLongFrameException {
  private static final long serialVersionUID = 1L;

  private final long declaredLength;
  private final int limit;

  public FrameTooLargeException(long declaredLength, int limit) {
    super("frame of " + declaredLength + " bytes exceeds the limit of " + limit + " bytes");
    this.declaredLength = declaredLength;
    this.limit = limit;
  }

  public long declaredLength() {
    return declaredLength;
  }

  public int limit() {
    return limit;
  }
}
