package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.List;

/**
 * Encodes and decodes the Java values of one declared type as the content of a protobuf field.
 *
 * <p>Every codec is built once, when a service is registered, for one declared type; it is
 * immutable, thread-safe, and does no reflective lookup while encoding or decoding. A codec handles
 * the value itself (for length-delimited values including the length) but not the field tag, which
 * belongs to the enclosing message: {@link #writeField} adds it.
 *
 * <p>The type of the value is known on both sides from the method signature; nothing read from the
 * wire ever chooses a class.
 *
 * @param <T> the Java type this codec reads and writes
 */
public abstract class ValueCodec<T> {
  public static final int VARINT = WireFormat.WIRETYPE_VARINT;
  public static final int FIXED64 = WireFormat.WIRETYPE_FIXED64;
  public static final int LEN = WireFormat.WIRETYPE_LENGTH_DELIMITED;
  public static final int FIXED32 = WireFormat.WIRETYPE_FIXED32;

  private final String typeName;
  private final int wireType;

  protected ValueCodec(String typeName, int wireType) {
    this.typeName = typeName;
    this.wireType = wireType;
  }

  /**
   * The portable type descriptor, as sent in {@code Argument.type}: {@code "string"}, {@code
   * "list<int64>"}, {@code "OrderInfo"}... (docs/PROTOCOL.md).
   */
  public final String typeName() {
    return typeName;
  }

  /** The protobuf wire type of the value: {@link #VARINT}, {@link #FIXED32}, {@link #FIXED64} or {@link #LEN}. */
  public final int wireType() {
    return wireType;
  }

  /**
   * Writes {@code value} without its field tag, with the length prefix of a length-delimited
   * value. {@code value} is never absent.
   */
  public abstract void write(ProtoWriter out, T value) throws IOException;

  /** Reads one value whose field tag (of this codec's wire type) has just been read. */
  public abstract T read(CodedInputStream in, DecodeContext context) throws IOException;

  /**
   * Whether a value is one run of bytes ({@code byte[]}, {@code ByteBuffer}), which decoding copies
   * once wherever the bytes lie: then a received value is read where it lies rather than from a
   * heap copy ({@code Payload.readValue}), which would copy it twice.
   */
  public boolean isBulkBytes() {
    return false;
  }

  /** Whether {@code value} is encoded as an absent field (null, or an empty {@code Optional}). */
  public boolean isAbsent(T value) {
    return value == null;
  }

  /** The value an absent field decodes to: null, {@code Optional.empty()}, or a primitive's zero. */
  public T absentValue() {
    return null;
  }

  /** Whether a repeated field of these values is written packed (numeric scalars). */
  public final boolean isPackable() {
    return wireType != LEN;
  }

  /** Writes {@code value} as field {@code fieldNumber}, tag included; nothing when it is absent. */
  public final void writeField(ProtoWriter out, int fieldNumber, T value) throws IOException {
    if (isAbsent(value)) {
      return;
    }
    out.writeTag(fieldNumber, wireType);
    write(out, value);
  }

  /** Reads a value whose tag was {@code tag}, failing clearly when the wire type does not match. */
  public final T readField(CodedInputStream in, int tag, DecodeContext context)
      throws IOException {
    int actual = WireFormat.getTagWireType(tag);
    if (actual != wireType) {
      throw new CodecException(
          "field "
              + WireFormat.getTagFieldNumber(tag)
              + " holds wire type "
              + wireTypeName(actual)
              + " but "
              + typeName
              + " needs "
              + wireTypeName(wireType));
    }
    return read(in, context);
  }

  /**
   * The codecs of the values a value of this codec holds: a container's element (and key), a
   * POJO's fields. Walked to find the types a SCHEMA frame describes ({@link Schemas}).
   */
  public List<ValueCodec<?>> nestedCodecs() {
    return List.of();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + typeName + "]";
  }

  static String wireTypeName(int wireType) {
    switch (wireType) {
      case VARINT:
        return "VARINT";
      case FIXED64:
        return "I64";
      case LEN:
        return "LEN";
      case FIXED32:
        return "I32";
      default:
        return "wire type " + wireType;
    }
  }
}
