package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/** A finished frame waiting in a {@link WriteQueue}; the queue's channel takes ownership. */
public final class FrameWrite implements QueuedWrite {
  private final ByteBuf frame;

  public FrameWrite(ByteBuf frame) {
    this.frame = frame;
  }

  @Override
  public void writeTo(Channel channel) {
    channel.write(frame, channel.voidPromise());
  }

  @Override
  public void abort(Throwable cause) {
    frame.release();
  }
}
