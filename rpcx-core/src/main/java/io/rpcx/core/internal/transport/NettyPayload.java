package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.rpcx.core.internal.protocol.Payload;
import java.nio.ByteBuffer;

/** A {@link Payload} over a received Netty buffer, which it owns and releases. */
public final class NettyPayload implements Payload {
  private final ByteBuf buffer;
  private final ByteBuffer view;

  /** Takes ownership of {@code buffer}, whose readable bytes are the payload. */
  public NettyPayload(ByteBuf buffer) {
    this.buffer = buffer;
    this.view = buffer.nioBuffer();
  }

  @Override
  public ByteBuffer buffer() {
    return view;
  }

  @Override
  public void release() {
    buffer.release();
  }
}
