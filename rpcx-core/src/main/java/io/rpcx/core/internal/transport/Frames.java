package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.protocol.FrameType;
import java.io.IOException;

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

  /**
   * Payloads expected to be at most this many bytes are encoded on the heap first by {@link
   * #encode}; larger ones straight into the pooled buffer, to save copying bulk data twice.
   */
  static final int HEAP_ENCODE_LIMIT = 64 * 1024;

  /** Writes a frame's payload. */
  @FunctionalInterface
  public interface PayloadWriter {
    void writeTo(ProtoWriter out) throws IOException;
  }

  /**
   * A frame of {@code type} whose payload {@code payload} writes, at most {@code maxFrameSize}
   * bytes after the length field ({@link IndexOutOfBoundsException} past that, and the frame
   * released). A payload expected ({@code sizeHint}, the last one's size) to be up to 64 KiB is
   * encoded into a heap array and copied into an exactly sized pooled buffer in one go: a heap
   * array takes the codec's many small writes for less than a Netty buffer, which checks bounds
   * and its reference count on every write and grows by reallocation (docs/BENCHMARKS.md: 100 ×
   * {@code OrderInfo} at 32 threads went from 4,452 to 5,371 calls/s, one {@code OrderInfo} from
   * 73,868 to 82,930). Larger payloads, mostly bulk strings and bytes, are written straight into
   * the pooled buffer, so their bytes are not copied twice.
   */
  public static ByteBuf encode(
      ByteBufAllocator allocator, byte type, int sizeHint, int maxFrameSize, PayloadWriter payload)
      throws IOException {
    int maxPayload = Math.max(0, maxFrameSize - FrameType.TYPE_AND_FLAGS_SIZE);
    if (sizeHint > HEAP_ENCODE_LIMIT) {
      ByteBuf frame = begin(allocator, type, sizeHint, maxFrameSize);
      try {
        payload.writeTo(new ByteBufProtoWriter(frame));
      } catch (IOException | RuntimeException | Error e) {
        frame.release();
        throw e;
      }
      finish(frame);
      return frame;
    }
    // The hint is the last payload's size; a little slack saves regrowing for one a bit larger.
    int capacity = (int) Math.min(maxPayload, Math.max(0, sizeHint) + (sizeHint >>> 4) + 16L);
    ByteArrayProtoWriter out = new ByteArrayProtoWriter(new byte[capacity], maxPayload);
    payload.writeTo(out);
    ByteBuf frame = allocate(allocator, type, out.position());
    frame.writeBytes(out.array(), 0, out.position());
    return frame;
  }

  /** The payload size of a whole frame. */
  public static int payloadSize(ByteBuf frame) {
    return frame.readableBytes() - FrameType.HEADER_SIZE;
  }

  /** Patches the length of a frame started with {@link #begin}; returns its payload size. */
  public static int finish(ByteBuf frame) {
    int afterLength = frame.writerIndex() - frame.readerIndex() - FrameType.LENGTH_FIELD_SIZE;
    frame.setInt(frame.readerIndex(), afterLength);
    return afterLength - FrameType.TYPE_AND_FLAGS_SIZE;
  }
}
