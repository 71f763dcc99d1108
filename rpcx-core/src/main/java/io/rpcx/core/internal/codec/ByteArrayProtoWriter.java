package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A {@link ProtoWriter} into a heap array, grown as needed up to a limit. The transport encodes
 * small frames' payloads with it before copying them into a pooled buffer ({@code
 * Frames.encode}); tests, tools and benchmarks use it too.
 */
public final class ByteArrayProtoWriter extends ProtoWriter {
  private byte[] buffer;
  /** Where the writer must stop or grow: the array's length, or {@code maxLength} if shorter. */
  private int capacity;
  private int position;
  private final int maxLength;

  /** A writer into a new array. */
  public ByteArrayProtoWriter() {
    this(new byte[256]);
  }

  /** A writer into {@code buffer} from its start (a bigger array replaces it if needed). */
  public ByteArrayProtoWriter(byte[] buffer) {
    this(buffer, Integer.MAX_VALUE);
  }

  /**
   * A writer into {@code buffer} that never writes more than {@code maxLength} bytes: a write
   * that would throws {@link WriteLimitException}. The array may be longer (one reused for
   * several payloads); its bytes past the limit are never written.
   */
  public ByteArrayProtoWriter(byte[] buffer, int maxLength) {
    this.buffer = buffer;
    this.maxLength = maxLength;
    this.capacity = Math.min(buffer.length, maxLength);
  }

  /** The bytes written. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buffer, position);
  }

  /** The array written into (it may be longer than what was written). */
  public byte[] array() {
    return buffer;
  }

  private void ensure(int more) {
    if (position + more > capacity) {
      grow(more);
    }
  }

  private void grow(int more) {
    // Past the capacity is past the array (then grown) or past maxLength (then refused).
    long needed = (long) position + more;
    // The JVM refuses arrays of nearly Integer.MAX_VALUE elements; stay below its limit.
    long limit = Math.min(maxLength, Integer.MAX_VALUE - 8);
    if (needed > limit) {
      throw new WriteLimitException(more, position, limit);
    }
    buffer = Arrays.copyOf(buffer, (int) Math.min(limit, Math.max(2L * buffer.length, needed)));
    capacity = buffer.length;
  }

  @Override
  public void writeByte(int value) {
    ensure(1);
    buffer[position++] = (byte) value;
  }

  @Override
  public void writeBytes(byte[] bytes, int offset, int length) {
    ensure(length);
    System.arraycopy(bytes, offset, buffer, position, length);
    position += length;
  }

  @Override
  public void writeBytes(ByteBuffer bytes) {
    int length = bytes.remaining();
    ensure(length);
    bytes.duplicate().get(buffer, position, length);
    position += length;
  }

  @Override
  public void writeVarint32(int value) {
    if (position + 5 > capacity) {
      ensure(varint32Size(value)); // exactly, so that a varint ending at the limit fits
    }
    while ((value & ~0x7F) != 0) {
      buffer[position++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buffer[position++] = (byte) value;
  }

  @Override
  public void writeVarint64(long value) {
    if (position + 10 > capacity) {
      ensure(varint64Size(value)); // exactly, so that a varint ending at the limit fits
    }
    while ((value & ~0x7FL) != 0) {
      buffer[position++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buffer[position++] = (byte) value;
  }

  @Override
  public void writeFixed32(int value) {
    ensure(4);
    for (int i = 0; i < 4; i++) {
      buffer[position++] = (byte) (value >>> (8 * i));
    }
  }

  @Override
  public void writeFixed64(long value) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      buffer[position++] = (byte) (value >>> (8 * i));
    }
  }

  @Override
  public void writeString(String value) {
    int chars = value.length();
    if (chars > Utf8Chunks.LONGER_THAN) {
      writeLongString(value);
      return;
    }
    if (chars > Utf8Strings.MAX_ENCODED_IN_PLACE) {
      byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
      writeVarint32(utf8.length);
      writeBytes(utf8, 0, utf8.length);
      return;
    }
    // Encoded in place after its length, which takes one byte: at most 3 bytes per char.
    int start = position;
    ensure(1 + chars);
    position = start + 1;
    int ascii = Utf8Strings.encodeAscii(value, buffer, position);
    position += ascii;
    if (ascii < chars) {
      ensure(Utf8Strings.encodedLength(value, ascii));
      position = Utf8Strings.encode(value, ascii, buffer, position);
    }
    buffer[start] = (byte) (position - start - 1);
  }

  @Override
  public void writeMessage(MessageLite message) throws IOException {
    int size = message.getSerializedSize();
    writeVarint32(size);
    ensure(size);
    CodedOutputStream out = CodedOutputStream.newInstance(buffer, position, size);
    message.writeTo(out);
    out.checkNoSpaceLeft();
    position += size;
  }

  @Override
  public long beginLengthDelimited(int expectedLength) {
    int reserved = varint32Size(expectedLength);
    ensure(reserved);
    long mark = mark(position, reserved);
    position += reserved;
    return mark;
  }

  @Override
  public int endLengthDelimited(long mark) {
    int start = markPosition(mark);
    int reserved = markReserved(mark);
    int length = position - start - reserved;
    int needed = varint32Size(length);
    if (needed != reserved) {
      ensure(needed - reserved);
      System.arraycopy(buffer, start + reserved, buffer, start + needed, length);
      position += needed - reserved;
    }
    int at = start;
    int remaining = length;
    while ((remaining & ~0x7F) != 0) {
      buffer[at++] = (byte) ((remaining & 0x7F) | 0x80);
      remaining >>>= 7;
    }
    buffer[at] = (byte) remaining;
    return length;
  }

  @Override
  public int position() {
    return position;
  }
}
