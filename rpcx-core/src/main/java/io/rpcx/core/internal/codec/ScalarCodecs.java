package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;

/**
 * Codecs of primitives, their boxes, {@code String}, {@code byte[]} and enums, mapped to protobuf
 * scalar types: {@code boolean} to bool, {@code byte}/{@code short}/{@code int} to int32, {@code
 * long} to int64, {@code char} to uint32, {@code float}/{@code double} to float/double, {@code
 * String} to string, {@code byte[]} to bytes, an enum to the string of its constant's name.
 */
final class ScalarCodecs implements CodecFactory {

  private static final Map<Class<?>, ValueCodec<?>> CODECS = new HashMap<>();

  static {
    CODECS.put(boolean.class, new BoolCodec(true));
    CODECS.put(Boolean.class, new BoolCodec(false));
    CODECS.put(int.class, new Int32Codec(true));
    CODECS.put(Integer.class, new Int32Codec(false));
    CODECS.put(long.class, new Int64Codec(true));
    CODECS.put(Long.class, new Int64Codec(false));
    CODECS.put(short.class, new ShortCodec(true));
    CODECS.put(Short.class, new ShortCodec(false));
    CODECS.put(byte.class, new ByteCodec(true));
    CODECS.put(Byte.class, new ByteCodec(false));
    CODECS.put(char.class, new CharCodec(true));
    CODECS.put(Character.class, new CharCodec(false));
    CODECS.put(float.class, new FloatCodec(true));
    CODECS.put(Float.class, new FloatCodec(false));
    CODECS.put(double.class, new DoubleCodec(true));
    CODECS.put(Double.class, new DoubleCodec(false));
    CODECS.put(String.class, new StringCodec());
    CODECS.put(byte[].class, new ByteArrayCodec());
  }

  @Override
  public String description() {
    return "scalars (primitives and their boxes, String, byte[], enums)";
  }

  @Override
  public ValueCodec<?> create(Type type, CodecResolver resolver) {
    if (!(type instanceof Class)) {
      return null;
    }
    Class<?> raw = (Class<?>) type;
    ValueCodec<?> codec = CODECS.get(raw);
    if (codec != null) {
      return codec;
    }
    if (raw.isEnum()) {
      return enumCodec(raw);
    }
    return null;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static ValueCodec<?> enumCodec(Class<?> raw) {
    return new EnumCodec(raw);
  }

  /** The string codec, for use by other codecs. */
  static ValueCodec<String> string() {
    @SuppressWarnings("unchecked")
    ValueCodec<String> codec = (ValueCodec<String>) CODECS.get(String.class);
    return codec;
  }

  static final class BoolCodec extends ValueCodec<Boolean> {
    private final boolean primitive;

    BoolCodec(boolean primitive) {
      super("bool", VARINT);
      this.primitive = primitive;
    }

    @Override
    public void write(ProtoWriter out, Boolean value) throws IOException {
      out.writeBool(value);
    }

    @Override
    public Boolean read(CodedInputStream in, DecodeContext context) throws IOException {
      return in.readBool();
    }

    @Override
    public Boolean absentValue() {
      return primitive ? Boolean.FALSE : null;
    }
  }

  static final class Int32Codec extends ValueCodec<Integer> {
    private final boolean primitive;

    Int32Codec(boolean primitive) {
      super("int32", VARINT);
      this.primitive = primitive;
    }

    @Override
    public void write(ProtoWriter out, Integer value) throws IOException {
      out.writeInt32(value);
    }

    @Override
    public Integer read(CodedInputStream in, DecodeContext context) throws IOException {
      return in.readInt32();
    }

    @Override
    public Integer absentValue() {
      return primitive ? 0 : null;
    }
  }

  static final class Int64Codec extends ValueCodec<Long> {
    private final boolean primitive;

    Int64Codec(boolean primitive) {
      super("int64", VARINT);
      this.primitive = primitive;
    }

    @Override
    public void write(ProtoWriter out, Long value) throws IOException {
      out.writeVarint64(value);
    }

    @Override
    public Long read(CodedInputStream in, DecodeContext context) throws IOException {
      return in.readInt64();
    }

    @Override
    public Long absentValue() {
      return primitive ? 0L : null;
    }
  }

  static final class ShortCodec extends ValueCodec<Short> {
    private final boolean primitive;

    ShortCodec(boolean primitive) {
      super("int32", VARINT);
      this.primitive = primitive;
    }

    @Override
    public void write(ProtoWriter out, Short value) throws IOException {
      out.writeInt32(value);
    }

    @Override
    public Short read(CodedInputStream in, DecodeContext context) throws IOException {
      int value = in.readInt32();
      if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
        throw new CodecException("value " + value + " is out of range for short");
      }
      return (short) value;
    }

    @Override
    public Short absentValue() {
      return primitive ? (short) 0 : null;
    }
  }

  static final class ByteCodec extends ValueCodec<Byte> {
    private final boolean primitive;

    ByteCodec(boolean primitive) {
      super("int32", VARINT);
      this.primitive = primitive;
    }

    @Override
    public void write(ProtoWriter out, Byte value) throws IOException {
      out.writeInt32(value);
    }

    @Override
    public Byte read(CodedInputStream in, DecodeContext context) throws IOException {
      int value = in.readInt32();
      if (value < Byte.MIN_VALUE || value > Byte.MAX_VALUE) {
        throw new CodecException("value " + value + " is out of range for byte");
      }
      return (byte) value;
    }

    @Override
    public Byte absentValue() {
      return primitive ? (byte) 0 : null;
    }
  }

  static final class CharCodec extends ValueCodec<Character> {
    private final boolean primitive;

    CharCodec(boolean primitive) {
      super("char", VARINT);
      this.primitive = primitive;
    }

    @Override
    public void write(ProtoWriter out, Character value)
        throws IOException {
      out.writeVarint32(value);
    }

    @Override
    public Character read(CodedInputStream in, DecodeContext context) throws IOException {
      int value = in.readUInt32();
      if (value < Character.MIN_VALUE || value > Character.MAX_VALUE) {
        throw new CodecException("value " + value + " is out of range for char");
      }
      return (char) value;
    }

    @Override
    public Character absentValue() {
      return primitive ? (char) 0 : null;
    }
  }

  static final class FloatCodec extends ValueCodec<Float> {
    private final boolean primitive;

    FloatCodec(boolean primitive) {
      super("float", FIXED32);
      this.primitive = primitive;
    }

    @Override
    public void write(ProtoWriter out, Float value) throws IOException {
      out.writeFloat(value);
    }

    @Override
    public Float read(CodedInputStream in, DecodeContext context) throws IOException {
      return in.readFloat();
    }

    @Override
    public Float absentValue() {
      return primitive ? 0f : null;
    }
  }

  static final class DoubleCodec extends ValueCodec<Double> {
    private final boolean primitive;

    DoubleCodec(boolean primitive) {
      super("double", FIXED64);
      this.primitive = primitive;
    }

    @Override
    public void write(ProtoWriter out, Double value) throws IOException {
      out.writeDouble(value);
    }

    @Override
    public Double read(CodedInputStream in, DecodeContext context) throws IOException {
      return in.readDouble();
    }

    @Override
    public Double absentValue() {
      return primitive ? 0d : null;
    }
  }

  static final class StringCodec extends ValueCodec<String> {
    StringCodec() {
      super("string", LEN);
    }

    @Override
    public void write(ProtoWriter out, String value) throws IOException {
      out.writeString(value);
    }

    @Override
    public String read(CodedInputStream in, DecodeContext context) throws IOException {
      // Malformed UTF-8 is an error rather than silently replaced: a corrupted string is a bug.
      return Utf8Strings.read(in);
    }
  }

  static final class ByteArrayCodec extends ValueCodec<byte[]> {
    ByteArrayCodec() {
      super("bytes", LEN);
    }

    @Override
    public void write(ProtoWriter out, byte[] value) throws IOException {
      out.writeByteArray(value);
    }

    @Override
    public byte[] read(CodedInputStream in, DecodeContext context) throws IOException {
      return in.readByteArray();
    }

    @Override
    public boolean isBulkBytes() {
      return true;
    }
  }

  /** An enum travels as the name of its constant, so reordering or adding constants is safe. */
  static final class EnumCodec<E extends Enum<E>> extends ValueCodec<E> {
    private final Class<E> type;
    private final Map<String, E> byName;
    /** Each constant's name, encoded once: length and UTF-8 bytes, by ordinal. */
    private final byte[][] encoded;

    /** The enum class. */
    Class<E> type() {
      return type;
    }

    EnumCodec(Class<E> type) {
      super(type.getSimpleName(), LEN);
      this.type = type;
      this.byName = new HashMap<>();
      E[] constants = type.getEnumConstants();
      this.encoded = new byte[constants.length][];
      for (E constant : constants) {
        byName.put(constant.name(), constant);
        ByteArrayProtoWriter writer = new ByteArrayProtoWriter(new byte[16]);
        writer.writeString(constant.name());
        encoded[constant.ordinal()] = writer.toByteArray();
      }
    }

    @Override
    public void write(ProtoWriter out, E value) {
      byte[] bytes = encoded[value.ordinal()];
      out.writeBytes(bytes, 0, bytes.length);
    }

    @Override
    public E read(CodedInputStream in, DecodeContext context) throws IOException {
      String name = Utf8Strings.read(in);
      E constant = byName.get(name);
      if (constant == null) {
        throw new CodecException(
            "unknown constant '" + abbreviate(name) + "' of enum " + type.getName());
      }
      return constant;
    }
  }

  /** Shortens text copied from the wire into an error message. */
  static String abbreviate(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "...";
  }
}
