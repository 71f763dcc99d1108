package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;

/**
 * The codec of a raw call's arguments and result, whose values are whole value messages already
 * encoded ({@code docs/PROTOCOL.md}, section 2.2): a tool that has no Java class for a type (the
 * {@code rpcx} command line) encodes them itself. It writes a value message's bytes exactly as
 * given and reads field 1 of a reply back into a value message's bytes. It describes no POJO type,
 * so a raw call sends no SCHEMA frame and the server reads POJO fields with its own numbering.
 * Immutable and thread-safe.
 */
public final class RawValueCodec extends ValueCodec<byte[]> {
  private static final byte[] EMPTY = new byte[0];

  private final byte valueTag;

  /** A codec of values whose type descriptor is {@code typeName}. */
  public RawValueCodec(String typeName) {
    this(typeName, wireTypeOf(typeName));
  }

  private RawValueCodec(String typeName, int wireType) {
    super(typeName, wireType);
    this.valueTag = (byte) (Values.VALUE_FIELD << 3 | wireType);
  }

  /** The wire type of the values a type descriptor stands for (section 2.1 of the protocol). */
  public static int wireTypeOf(String typeName) {
    switch (typeName) {
      case "bool":
      case "int32":
      case "int64":
      case "char":
        return VARINT;
      case "float":
        return FIXED32;
      case "double":
        return FIXED64;
      default:
        return LEN;
    }
  }

  /**
   * Why {@code valueMessage} cannot be sent as a value of this type, or {@code null} when it can:
   * it is empty (null) or starts with field 1 of this type's wire type.
   */
  public String problemWith(byte[] valueMessage) {
    if (valueMessage.length == 0 || valueMessage[0] == valueTag) {
      return null;
    }
    return "a value message of type " + typeName() + " must be empty or start with field 1 of wire"
        + " type " + wireTypeName(wireType()) + " (tag byte 0x" + Integer.toHexString(valueTag & 0xff)
        + "), not byte 0x" + Integer.toHexString(valueMessage[0] & 0xff);
  }

  /** An empty value message is a null value: the argument then has no value field. */
  @Override
  public boolean isAbsent(byte[] valueMessage) {
    return valueMessage == null || valueMessage.length == 0;
  }

  /** An absent result is the empty value message. */
  @Override
  public byte[] absentValue() {
    return EMPTY;
  }

  /** Writes the message after its first byte, the tag {@link #writeField} has just written. */
  @Override
  public void write(ProtoWriter out, byte[] valueMessage) {
    out.writeBytes(valueMessage, 1, valueMessage.length - 1);
  }

  /** A length-delimited value is copied out whole, as bytes, wherever it lies. */
  @Override
  public boolean isBulkBytes() {
    return wireType() == LEN;
  }

  /** Reads field 1's content back into a whole value message. */
  @Override
  public byte[] read(CodedInputStream in, DecodeContext context) throws IOException {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    out.writeByte(valueTag);
    switch (wireType()) {
      case VARINT:
        out.writeVarint64(in.readRawVarint64());
        break;
      case FIXED32:
        out.writeFixed32(in.readRawLittleEndian32());
        break;
      case FIXED64:
        out.writeFixed64(in.readRawLittleEndian64());
        break;
      default:
        out.writeByteArray(in.readByteArray());
        break;
    }
    return out.toByteArray();
  }
}
