package io.rpcx.core.internal.transport;

import com.google.protobuf.CodedInputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.rpcx.core.internal.protocol.Payload;
import java.util.Arrays;

/**
 * A {@link Payload} over a received Netty buffer, which it owns and releases. A large frame may be a
 * composite of the reads that brought it; protobuf then reads across its parts without merging
 * them.
 */
public final class NettyPayload implements Payload {
  /**
   * Values in direct memory up to this size are copied to the thread's own heap array before
   * decoding; larger ones up to {@link LargeScratchArrays#MAX_KEPT} to a shared one. protobuf-java
   * reads direct memory through a slower decoder: strings char by char instead of the JDK's
   * vectorized {@code new String(bytes, UTF_8)} (the largest frame of the 100 × OrderInfo CPU
   * profile, docs/benchmarks/profiles/cpu-orders-32t.txt), every {@code bytes} field through a
   * temporary slice object, and a long string through a new array the JVM zeroes first. A 64 KiB
   * copy is a few microseconds.
   */
  static final int HEAP_COPY_LIMIT = 64 * 1024;

  private final ByteBuf buffer;
  private final int start;
  private final InboundMeter meter;

  /** Takes ownership of {@code buffer}, whose readable bytes are the payload. */
  public NettyPayload(ByteBuf buffer) {
    this(buffer, null);
  }

  /**
   * Takes ownership of {@code buffer}, whose readable bytes are the payload, counting them in
   * {@code meter} until released.
   */
  public NettyPayload(ByteBuf buffer, InboundMeter meter) {
    this.buffer = buffer;
    this.start = buffer.readerIndex();
    this.meter = meter;
    if (meter != null) {
      meter.held(length());
    }
  }

  @Override
  public int length() {
    return buffer.writerIndex() - start;
  }

  /**
   * A stream over the region, read in place where protobuf-java can: from the heap, or from direct
   * memory when its runtime decodes that in place ({@link DirectDecoding}). Otherwise the region is
   * copied to the heap once, which is what protobuf-java 4.34 and later would do anyway.
   */
  @Override
  public CodedInputStream input(int offset, int length) {
    if (buffer.nioBufferCount() == 1) {
      if (DirectDecoding.SINGLE_IN_PLACE || buffer.hasArray()) {
        return CodedInputStream.newInstance(buffer.nioBuffer(start + offset, length));
      }
    } else if (DirectDecoding.COMPOSITE_IN_PLACE) {
      return CodedInputStream.newInstance(Arrays.asList(buffer.nioBuffers(start + offset, length)));
    }
    return heapCopy(offset, length);
  }

  /**
   * Reads a value from a heap copy, in a reused array: of up to 64 KiB, the thread's own ({@link
   * ScratchArrays}); of up to 4 MiB, one of a few shared by all threads ({@link
   * LargeScratchArrays}), which spares a long string the new array protobuf-java would copy it out
   * into from direct memory. The array is given back once {@code reader} returns. protobuf-java's
   * array decoder copies every {@code bytes} field and string out of it, and no codec turns
   * aliasing on, so nothing decoded shares the array. Read through {@link #input} instead, where
   * it lies if protobuf-java can: a value already on the heap; a larger one, or one while every
   * shared array is lent; and over 64 KiB, bulk bytes (a {@code byte[]}, copied once where it lies
   * rather than twice) where protobuf-java reads direct memory in place.
   */
  @Override
  public <T, E extends Exception> T readValue(
      int offset, int length, boolean bulkBytes, ValueReader<T, E> reader) throws E {
    if (buffer.hasArray() && buffer.nioBufferCount() == 1) {
      return reader.read(input(offset, length));
    }
    if (length <= HEAP_COPY_LIMIT) {
      byte[] copy = ScratchArrays.take(length);
      try {
        return readCopy(offset, length, copy, reader);
      } finally {
        ScratchArrays.give(copy);
      }
    }
    boolean inPlace =
        buffer.nioBufferCount() == 1
            ? DirectDecoding.SINGLE_IN_PLACE
            : DirectDecoding.COMPOSITE_IN_PLACE;
    byte[] copy =
        (bulkBytes && inPlace) || length > LargeScratchArrays.MAX_KEPT
            ? null
            : LargeScratchArrays.take(length);
    if (copy == null) {
      return reader.read(input(offset, length));
    }
    try {
      return readCopy(offset, length, copy, reader);
    } finally {
      LargeScratchArrays.give(copy);
    }
  }

  /** Copies the region into the start of {@code copy} and reads it from there. */
  private <T, E extends Exception> T readCopy(
      int offset, int length, byte[] copy, ValueReader<T, E> reader) throws E {
    buffer.getBytes(start + offset, copy, 0, length);
    return reader.read(CodedInputStream.newInstance(copy, 0, length));
  }

  private CodedInputStream heapCopy(int offset, int length) {
    byte[] copy = new byte[length];
    buffer.getBytes(start + offset, copy);
    return CodedInputStream.newInstance(copy);
  }

  @Override
  public boolean regionEquals(int offset, byte[] expected) {
    if (offset + expected.length > length()) {
      return false;
    }
    for (int i = 0; i < expected.length; i++) {
      if (buffer.getByte(start + offset + i) != expected[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public byte[] bytes(int offset, int length) {
    return ByteBufUtil.getBytes(buffer, start + offset, length);
  }

  @Override
  public void release() {
    if (meter != null) {
      meter.released(length());
    }
    buffer.release();
  }
}
