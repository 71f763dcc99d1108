package io.rpcx.core.internal.codec;

import com.google.protobuf.MessageLite;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Writes the protobuf wire format in one forward pass. A length-delimited value reserves one byte
 * for its length ({@link #beginLengthDelimited()}); when it ends ({@link #endLengthDelimited}) the
 * length is written into that byte, and the content moves forward in the rare case that the length
 * needs more bytes. So nothing is measured twice: every field is read once and every string
 * encoded once.
 *
 * <p>One writer serves one encoding on one thread. Implementations write into a heap array
 * ({@link ByteArrayProtoWriter}) or straight into the pooled buffer of an outgoing frame.
 */
public abstract class ProtoWriter {
  /** Deepest nesting accepted while encoding; deeper means a cycle in the object graph, usually. */
  public static final int MAX_DEPTH = 64;

  private int depth;

  /** Writes one raw byte. */
  public abstract void writeByte(int value);

  /** Writes raw bytes. */
  public abstract void writeBytes(byte[] bytes, int offset, int length);

  /** Writes the remaining bytes of {@code bytes} raw, without moving its position. */
  public abstract void writeBytes(ByteBuffer bytes);

  public abstract void writeVarint32(int value);

  public abstract void writeVarint64(long value);

  /** Writes four bytes, little-endian. */
  public abstract void writeFixed32(int value);

  /** Writes eight bytes, little-endian. */
  public abstract void writeFixed64(long value);

  /** Writes the UTF-8 length of {@code value}, then its UTF-8 bytes. */
  public abstract void writeString(String value);

  /** Writes the length of {@code message}, then the message, with its generated code. */
  public abstract void writeMessage(MessageLite message) throws IOException;

  /**
   * Starts a length-delimited value expected to be about {@code expectedLength} bytes long,
   * reserving the bytes its length will take; returns the mark to end it with. With a good
   * expectation (the size the same value had last time) the content never moves.
   */
  public abstract long beginLengthDelimited(int expectedLength);

  /** Starts a length-delimited value expected to be shorter than 128 bytes. */
  public final long beginLengthDelimited() {
    return beginLengthDelimited(0);
  }

  /**
   * Ends the length-delimited value started at {@code mark}: writes its length, moving the content
   * if the length takes more or fewer bytes than were reserved. Returns the length.
   */
  public abstract int endLengthDelimited(long mark);

  /** The position encoded in a mark. */
  protected static int markPosition(long mark) {
    return (int) (mark >>> 8);
  }

  /** The reserved length bytes encoded in a mark. */
  protected static int markReserved(long mark) {
    return (int) (mark & 0xFF);
  }

  /** A mark for a value whose reserved length bytes start at {@code position}. */
  protected static long mark(int position, int reserved) {
    return ((long) position << 8) | reserved;
  }

  /** Bytes written so far. */
  public abstract int position();

  public final void writeTag(int fieldNumber, int wireType) {
    writeVarint32((fieldNumber << 3) | wireType);
  }

  /** Writes an {@code int32}: negative values take ten bytes, as protobuf specifies. */
  public final void writeInt32(int value) {
    if (value >= 0) {
      writeVarint32(value);
    } else {
      writeVarint64(value);
    }
  }

  public final void writeBool(boolean value) {
    writeByte(value ? 1 : 0);
  }

  public final void writeFloat(float value) {
    writeFixed32(Float.floatToRawIntBits(value));
  }

  public final void writeDouble(double value) {
    writeFixed64(Double.doubleToRawLongBits(value));
  }

  /**
   * Writes a string longer than {@link Utf8Chunks#LONGER_THAN} chars as {@link #writeString} does,
   * its UTF-8 length and then its bytes, encoded a chunk at a time ({@link Utf8Chunks}).
   */
  protected final void writeLongString(String value) {
    new Utf8Chunks(value).writeTo(this);
  }

  /** Writes the length of {@code bytes}, then the bytes. */
  public final void writeByteArray(byte[] bytes) {
    writeVarint32(bytes.length);
    writeBytes(bytes, 0, bytes.length);
  }

  /** Enters one level of nesting, failing on a likely cycle in the object graph. */
  public final void enter(String typeName) throws CodecException {
    if (++depth > MAX_DEPTH) {
      throw new CodecException(
          "value nested deeper than " + MAX_DEPTH + " levels at " + typeName
              + ": does the object graph contain a cycle?");
    }
  }

  /** Leaves the level entered last. */
  public final void exit() {
    depth--;
  }

  /** Bytes a 64-bit varint of {@code value} takes (10 for a negative one). */
  public static int varint64Size(long value) {
    return (70 - Long.numberOfLeadingZeros(value | 1)) / 7;
  }

  /** Bytes a varint of {@code value} takes. */
  public static int varint32Size(int value) {
    if ((value & (~0 << 7)) == 0) {
      return 1;
    }
    if ((value & (~0 << 14)) == 0) {
      return 2;
    }
    if ((value & (~0 << 21)) == 0) {
      return 3;
    }
    if ((value & (~0 << 28)) == 0) {
      return 4;
    }
    return 5;
  }
}
