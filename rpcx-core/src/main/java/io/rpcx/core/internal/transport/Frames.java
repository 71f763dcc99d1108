package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rpcx.core.internal.protocol.FrameType;

/**
 * Builds outgoing frames in one pooled buffer: the header first, with its length left open, then
 * the payload written straight after it, then the length patched in.
 */
public final class Frames {
  private Frames() {}

  /** A buffer holding the header of a frame of {@code type} whose payload is {@code payloadSize}. */
  public static ByteBuf allocate(ByteBufAllocator allocator, byte type, int payloadSize) {
    ByteBuf frame = allocator.directBuffer(FrameType.HEADER_SIZE + payloadSize);
    frame.writeInt(FrameType.TYPE_AND_FLAGS_SIZE + payloadSize);
    frame.writeByte(type);
    frame.writeByte(0);
    return frame;
  }

  /**
   * A buffer holding a frame header whose length is still open; write the payload after it (it
   * grows as needed from {@code capacityHint}, but never past the frame limit: writing more throws
   * {@link IndexOutOfBoundsException}) and call {@link #finish}.
   */
  public static ByteBuf begin(
      ByteBufAllocator allocator, byte type, int capacityHint, int maxFrameSize) {
    int max = (int) Math.min(Integer.MAX_VALUE, (long) FrameType.LENGTH_FIELD_SIZE + maxFrameSize);
    ByteBuf frame =
        allocator.directBuffer(
            Math.min(max, FrameType.HEADER_SIZE + Math.max(16, capacityHint)), max);
    frame.writeInt(0);
    frame.writeByte(type);
    frame.writeByte(0);
    return frame;
  }

  /** Patches the length of a frame started with {@link #begin}; returns its payload size. */
  public static int finish(ByteBuf frame) {
    int afterLength = frame.writerIndex() - frame.readerIndex() - FrameType.LENGTH_FIELD_SIZE;
    frame.setInt(frame.readerIndex(), afterLength);
    return afterLength - FrameType.TYPE_AND_FLAGS_SIZE;
  }
}
