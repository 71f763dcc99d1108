package io.rpcx.core.internal.transport;

import java.io.IOException;

/**
 * An outgoing frame would be longer than the connection's frame limit; nothing was sent and the
 * buffer was released. The caller answers with {@code RESOURCE_EXHAUSTED}. (A frame over the limit
 * that arrives is a {@link FrameTooLargeException}.)
 */
public final class FrameOverLimitException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int maxFrameSize;

  public FrameOverLimitException(int maxFrameSize) {
    super("the frame is over the limit of " + maxFrameSize + " bytes");
    this.maxFrameSize = maxFrameSize;
  }

  /** The limit that was passed: the largest value of a frame's length field. */
  public int maxFrameSize() {
    return maxFrameSize;
  }
}
