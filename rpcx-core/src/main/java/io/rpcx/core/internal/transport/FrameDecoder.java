package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.rpcx.core.internal.protocol.FrameType;
import java.nio.ByteOrder;

/**
 * Splits the byte stream into frames: reads the 4-byte length, checks it against the limit before
 * anything is allocated, and emits each frame (type, flags, payload) as a retained slice of the
 * received bytes, without copying. A large frame is gathered from the reads that bring it as a
 * composite buffer, so it is never copied into one contiguous buffer either. A length over the limit raises {@link FrameTooLargeException}
 * once; afterwards the decoder discards everything, since the stream can no longer be trusted and
 * the connection is being closed.
 *
 * <p>Ownership: each emitted {@link ByteBuf} belongs to the next handler, which must release it.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {
  /** Frames this large are assembled from their reads without copying (composite cumulation). */
  static final int LARGE_FRAME = 64 * 1024;

  private final int maxFrameSize;
  private final InboundMeter meter;
  private boolean failed;
  private boolean composite;

  /** @param maxFrameSize the largest accepted value of the length field */
  public FrameDecoder(int maxFrameSize) {
    this(maxFrameSize, null);
  }

  /**
   * @param maxFrameSize the largest accepted value of the length field
   * @param meter where the bytes of an incomplete frame are counted, or {@code null}
   */
  public FrameDecoder(int maxFrameSize, InboundMeter meter) {
    super(Integer.MAX_VALUE, 0, FrameType.LENGTH_FIELD_SIZE, 0, FrameType.LENGTH_FIELD_SIZE, true);
    this.maxFrameSize = maxFrameSize;
    this.meter = meter;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    try {
      super.channelRead(ctx, msg);
    } finally {
      if (meter != null) {
        // What is left after the frames were taken out: the start of the next one.
        meter.partial(actualReadableBytes());
      }
    }
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (meter != null) {
      meter.closed();
    }
  }

  @Override
  protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return null;
    }
    Object frame = super.decode(ctx, in);
    // While a large frame is arriving, gather its reads as a composite instead of copying each
    // into one growing buffer; small frames go back to the (faster for them) merging cumulation.
    boolean large =
        frame == null
            && in.readableBytes() >= FrameType.LENGTH_FIELD_SIZE
            && in.getUnsignedInt(in.readerIndex()) >= LARGE_FRAME;
    if (large != composite) {
      composite = large;
      setCumulator(large ? COMPOSITE_CUMULATOR : MERGE_CUMULATOR);
    }
    return frame;
  }

  @Override
  protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
    long declared = buf.getUnsignedInt(offset);
    if (declared > maxFrameSize) {
      failed = true;
      throw new FrameTooLargeException(declared, maxFrameSize);
    }
    if (declared < FrameType.TYPE_AND_FLAGS_SIZE) {
      failed = true;
      throw new CorruptedFrameException(
          "frame length " + declared + " is shorter than its type and flags");
    }
    return declared;
  }
}
