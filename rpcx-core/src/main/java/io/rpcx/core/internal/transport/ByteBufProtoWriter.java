package io.rpcx.core.internal.transport;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.Utf8Chunks;
import io.rpcx.core.internal.codec.WriteLimitException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A {@link ProtoWriter} straight into an outgoing frame's pooled buffer, which grows as needed up
 * to its maximum capacity (the frame limit): a write past it throws {@link WriteLimitException}
 * and writes nothing. Nested lengths are patched in place; when a length needs more than its
 * reserved byte, the content moves within the buffer (a memmove), which happens once per nested
 * value of 128 bytes or more.
 */
public final class ByteBufProtoWriter extends ProtoWriter {
  private final ByteBuf buffer;
  private final int start;

  /** Writes at {@code buffer}'s writer index; {@link #position()} counts from there. */
  public ByteBufProtoWriter(ByteBuf buffer) {
    this.buffer = buffer;
    this.start = buffer.writerIndex();
  }

  /** Makes room for {@code more} bytes, or throws {@link WriteLimitException} past the limit. */
  private void reserve(int more) {
    if (buffer.writableBytes() < more) {
      if (more > buffer.maxWritableBytes()) {
        throw new WriteLimitException(more, position(), (long) buffer.maxCapacity() - start);
      }
      buffer.ensureWritable(more);
    }
  }

  @Override
  public void writeByte(int value) {
    reserve(1);
    buffer.writeByte(value);
  }

  @Override
  public void writeBytes(byte[] bytes, int offset, int length) {
    reserve(length);
    buffer.writeBytes(bytes, offset, length);
  }

  @Override
  public void writeBytes(ByteBuffer bytes) {
    reserve(bytes.remaining());
    buffer.writeBytes(bytes.duplicate());
  }

  @Override
  public void writeVarint32(int value) {
    if ((value & ~0x7F) == 0) {
      reserve(1);
      buffer.writeByte(value);
    } else if ((value & ~0x3FFF) == 0) {
      reserve(2);
      buffer.writeShort(((value & 0x7F) | 0x80) << 8 | (value >>> 7));
    } else {
      reserve(varint32Size(value));
      while ((value & ~0x7F) != 0) {
        buffer.writeByte((value & 0x7F) | 0x80);
        value >>>= 7;
      }
      buffer.writeByte(value);
    }
  }

  @Override
  public void writeVarint64(long value) {
    reserve(varint64Size(value));
    while ((value & ~0x7FL) != 0) {
      buffer.writeByte((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    buffer.writeByte((int) value);
  }

  @Override
  public void writeFixed32(int value) {
    reserve(4);
    buffer.writeIntLE(value);
  }

  @Override
  public void writeFixed64(long value) {
    reserve(8);
    buffer.writeLongLE(value);
  }

  @Override
  public void writeString(String value) {
    if (value.length() > Utf8Chunks.LONGER_THAN) {
      // In chunks, so that no temporary array of its size is made.
      writeLongString(value);
      return;
    }
    // The JDK's encoder is vectorized for Latin-1 text; Netty's writes char by char, with a
    // buffer check per byte. The temporary array is small and dies young.
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    writeVarint32(utf8.length);
    writeBytes(utf8, 0, utf8.length);
  }

  @Override
  public void writeMessage(MessageLite message) throws IOException {
    int size = message.getSerializedSize();
    writeVarint32(size);
    reserve(size);
    int at = buffer.writerIndex();
    CodedOutputStream out =
        buffer.hasArray()
            ? CodedOutputStream.newInstance(buffer.array(), buffer.arrayOffset() + at, size)
            : CodedOutputStream.newInstance(buffer.internalNioBuffer(at, size));
    message.writeTo(out);
    out.checkNoSpaceLeft();
    buffer.writerIndex(at + size);
  }

  @Override
  public long beginLengthDelimited(int expectedLength) {
    int reserved = varint32Size(expectedLength);
    reserve(reserved);
    long mark = mark(buffer.writerIndex(), reserved);
    buffer.writeZero(reserved);
    return mark;
  }

  @Override
  public int endLengthDelimited(long mark) {
    int start = markPosition(mark);
    int reserved = markReserved(mark);
    int length = buffer.writerIndex() - start - reserved;
    int needed = varint32Size(length);
    if (needed == 1 && reserved == 1) {
      buffer.setByte(start, length);
      return length;
    }
    if (needed != reserved) {
      if (needed > reserved) {
        reserve(needed - reserved);
      }
      // Moves the content; ByteBuf.setBytes within one buffer copies like memmove
      // (System.arraycopy for heap buffers, Unsafe.copyMemory for direct ones).
      buffer.setBytes(start + needed, buffer, start + reserved, length);
      buffer.writerIndex(start + needed + length);
    }
    int at = start;
    int remaining = length;
    while ((remaining & ~0x7F) != 0) {
      buffer.setByte(at++, (remaining & 0x7F) | 0x80);
      remaining >>>= 7;
    }
    buffer.setByte(at, remaining);
    return length;
  }

  @Override
  public int position() {
    return buffer.writerIndex() - start;
  }
}
