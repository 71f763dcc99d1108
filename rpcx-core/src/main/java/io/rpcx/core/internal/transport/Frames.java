package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.WriteLimitException;
import io.rpcx.core.internal.protocol.FrameType;
import java.io.IOException;

/**
 * Builds outgoing frames in pooled buffers. {@link #encode} stages a small payload on the heap and
 * copies it in after the header at once; a large one is written after a header whose length is
 * left open and patched in at the end.
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
   * grows as needed from {@code capacityHint}, but never past the frame limit: a {@link
   * ByteBufProtoWriter} throws {@link WriteLimitException} there) and call {@link #finish}.
   */
  private static ByteBuf begin(
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

  /**
   * A staged payload that outgrows its hint stops at this many bytes and is encoded again straight
   * into a pooled buffer: a mispredicted large payload never builds a large heap array.
   */
  static final int MAX_STAGED = 4 * HEAP_ENCODE_LIMIT;

  /** Writes a frame's payload. */
  @FunctionalInterface
  public interface PayloadWriter {
    void writeTo(ProtoWriter out) throws IOException;
  }

  /**
   * A frame of {@code type} whose payload {@code payload} writes, at most {@code maxFrameSize}
   * bytes after the length field ({@link FrameOverLimitException} past that, and nothing kept).
   * A payload expected to be up to 64 KiB ({@code sizeHint}: the last one's size) is encoded into
   * a heap array and copied into an exactly sized pooled buffer at once: a heap array takes the
   * codec's many small writes for less than a Netty buffer, which checks bounds and its reference
   * count on every write (docs/benchmarks/HISTORY.md, "Small frames staged on the heap"). A payload
   * expected to be larger, or found larger than {@link #MAX_STAGED} while staging (then {@code
   * payload} writes again), goes straight into the pooled buffer, so bulk bytes are not copied
   * twice.
   */
  public static ByteBuf encode(
      ByteBufAllocator allocator, byte type, int sizeHint, int maxFrameSize, PayloadWriter payload)
      throws IOException {
    int hint = Math.max(0, sizeHint);
    ByteArrayProtoWriter staged = stage(hint, maxFrameSize, payload);
    if (staged != null) {
      try {
        ByteBuf frame = allocate(allocator, type, staged.position());
        frame.writeBytes(staged.array(), 0, staged.position());
        return frame;
      } finally {
        recycle(staged);
      }
    }
    // Expected or found larger than staging takes: straight into the frame (written again if the
    // staging attempt found it too large).
    return encodeDirect(allocator, type, unstagedHint(hint), maxFrameSize, payload);
  }

  /**
   * The capacity to start a frame with whose payload {@link #stage} did not take, when the last
   * payload was {@code sizeHint}: that size if it was too large to stage, else the most staging
   * takes (the payload was found larger).
   */
  public static int unstagedHint(int sizeHint) {
    return sizeHint <= HEAP_ENCODE_LIMIT ? MAX_STAGED : sizeHint;
  }

  /**
   * A frame of {@code type} whose payload {@code payload} writes straight into a pooled buffer of
   * {@code capacityHint} bytes at first, grown as needed: for a payload {@link #stage} did not
   * take.
   *
   * @throws FrameOverLimitException past {@code maxFrameSize}, with nothing kept
   */
  public static ByteBuf encodeDirect(
      ByteBufAllocator allocator,
      byte type,
      int capacityHint,
      int maxFrameSize,
      PayloadWriter payload)
      throws IOException {
    ByteBuf frame = begin(allocator, type, capacityHint, maxFrameSize);
    try {
      payload.writeTo(new ByteBufProtoWriter(frame));
    } catch (WriteLimitException e) {
      frame.release();
      throw new FrameOverLimitException(maxFrameSize);
    } catch (Throwable e) {
      frame.release();
      throw e;
    }
    finish(frame);
    return frame;
  }

  /**
   * The payload {@code payload} writes, encoded on the heap as {@link #encode} stages it, or null
   * when it is expected to be over 64 KiB ({@code sizeHint}) or found larger than staging takes:
   * then encode it with {@link #encodeDirect}, which writes it straight into a pooled buffer.
   * The array it is staged in is the thread's reused one ({@link ScratchArrays}): copy the bytes
   * out and give it back with {@link #recycle} before anything else is encoded on this thread
   * (one never given back is only garbage, never shared).
   *
   * @throws FrameOverLimitException if it is over {@code maxFrameSize}
   */
  public static ByteArrayProtoWriter stage(int sizeHint, int maxFrameSize, PayloadWriter payload)
      throws IOException {
    if (sizeHint > HEAP_ENCODE_LIMIT) {
      return null;
    }
    // As begin() bounds a frame: the length field plus maxFrameSize, less the header.
    int maxPayload =
        (int) Math.max(0, Math.min(Integer.MAX_VALUE, 4L + maxFrameSize) - FrameType.HEADER_SIZE);
    int stagingLimit = Math.min(maxPayload, MAX_STAGED);
    int hint = Math.max(0, sizeHint);
    // A little slack over the last size saves regrowing for a payload a bit larger.
    int capacity = (int) Math.min(stagingLimit, hint + (hint >>> 4) + 16L);
    ByteArrayProtoWriter out =
        new ByteArrayProtoWriter(ScratchArrays.take(capacity), stagingLimit);
    try {
      payload.writeTo(out);
      return out;
    } catch (WriteLimitException e) {
      recycle(out);
      if (stagingLimit == maxPayload) {
        throw new FrameOverLimitException(maxFrameSize);
      }
      return null; // larger than staging takes
    } catch (Throwable e) {
      recycle(out);
      throw e;
    }
  }

  /**
   * Gives the array of a payload {@link #stage} returned back to this thread, once its bytes are
   * copied out; neither the writer nor its array may be used afterwards.
   */
  public static void recycle(ByteArrayProtoWriter staged) {
    ScratchArrays.give(staged.array());
  }

  /** Writes a frame of {@code type} with the staged {@code payload} to the end of {@code target}. */
  public static void write(ByteBuf target, byte type, ByteArrayProtoWriter payload) {
    target.writeInt(FrameType.TYPE_AND_FLAGS_SIZE + payload.position());
    target.writeByte(type);
    target.writeByte(0);
    target.writeBytes(payload.array(), 0, payload.position());
  }

  /** The bytes a frame with a staged payload of {@code payloadSize} bytes takes. */
  public static int frameSize(int payloadSize) {
    return FrameType.HEADER_SIZE + payloadSize;
  }

  /** The payload size of a whole frame. */
  public static int payloadSize(ByteBuf frame) {
    return frame.readableBytes() - FrameType.HEADER_SIZE;
  }

  /** Patches the length of a frame started with {@link #begin}; returns its payload size. */
  private static int finish(ByteBuf frame) {
    int afterLength = frame.writerIndex() - frame.readerIndex() - FrameType.LENGTH_FIELD_SIZE;
    frame.setInt(frame.readerIndex(), afterLength);
    return afterLength - FrameType.TYPE_AND_FLAGS_SIZE;
  }
}
