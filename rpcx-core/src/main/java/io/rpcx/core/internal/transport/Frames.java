package io.rpcx.core.internal.transport;

import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.protocol.FrameType;

/**
 * Builds outgoing frames: allocates one buffer of the exact frame size, writes the header, and
 * lets protobuf write the payload straight into it.
 */
public final class Frames {
  private Frames() {}

  /** A buffer holding the header of a frame of {@code type} with {@code payloadSize} bytes. */
  public static ByteBuf allocate(ByteBufAllocator allocator, byte type, int payloadSize) {
    ByteBuf frame = allocator.directBuffer(FrameType.HEADER_SIZE + payloadSize);
    frame.writeInt(FrameType.TYPE_AND_FLAGS_SIZE + payloadSize);
    frame.writeByte(type);
    frame.writeByte(0);
    return frame;
  }

  /** A protobuf output over the next {@code payloadSize} writable bytes of {@code frame}. */
  public static CodedOutputStream payloadOutput(ByteBuf frame, int payloadSize) {
    if (frame.hasArray()) {
      return CodedOutputStream.newInstance(
          frame.array(), frame.arrayOffset() + frame.writerIndex(), payloadSize);
    }
    return CodedOutputStream.newInstance(frame.internalNioBuffer(frame.writerIndex(), payloadSize));
  }

  /**
   * Checks that exactly {@code payloadSize} bytes were written and moves the writer index past
   * them. A mismatch means a value changed between the size and the write pass (another thread
   * modifying an argument): the frame would be corrupt, so it is refused.
   */
  public static void finishPayload(ByteBuf frame, CodedOutputStream out, int payloadSize)
      throws CodecException {
    if (out.spaceLeft() != 0) {
      throw new CodecException(
          "wrote " + (payloadSize - out.spaceLeft()) + " of " + payloadSize
              + " bytes: a value was modified while it was being encoded");
    }
    frame.writerIndex(frame.writerIndex() + payloadSize);
  }
}
