package io.rpcx.core.internal.codec.pojo;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.Utf8Strings;
import io.rpcx.core.internal.codec.ValueCodec;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * One field of a POJO or record: how to read it from the object, and the codec of its value. Built
 * once per class; the accessors were found and opened at start-up, so a call only invokes them.
 * Primitive fields of classes are read and written without boxing, and a zero is left out of the
 * message, as protobuf does.
 */
public abstract class PojoField {
  private final String name;
  private final int number;
  private final ValueCodec<Object> codec;
  private final int tag;

  @SuppressWarnings("unchecked")
  PojoField(String name, int number, ValueCodec<?> codec) {
    this.name = name;
    this.number = number;
    this.codec = (ValueCodec<Object>) codec;
    this.tag = (number << 3) | codec.wireType();
  }

  /**
   * A field of a class. Where the JVM allows, the field is read and written by a generated
   * subclass of its kind ({@link GeneratedFields}); otherwise by reflection.
   */
  static PojoField forField(Field field, int number, ValueCodec<?> codec) {
    PojoField generated = GeneratedFields.forField(field, number, codec);
    return generated != null ? generated : reflective(field, number, codec);
  }

  /** A field of a class read and written by reflection ({@code field} made accessible). */
  static PojoField reflective(Field field, int number, ValueCodec<?> codec) {
    Class<?> type = field.getType();
    if (type == int.class) {
      return new IntField(field, number, codec);
    }
    if (type == long.class) {
      return new LongField(field, number, codec);
    }
    if (type == double.class) {
      return new DoubleField(field, number, codec);
    }
    if (type == boolean.class) {
      return new BooleanField(field, number, codec);
    }
    if (type == float.class) {
      return new FloatField(field, number, codec);
    }
    if (type == String.class) {
      return new StringField(field, number, codec);
    }
    return new ObjectField(field, number, codec);
  }

  /** A record component, read through its accessor; records are created whole. */
  static PojoField forRecordComponent(
      String name, Method accessor, int number, ValueCodec<?> codec) {
    return new RecordComponentField(name, accessor, number, codec);
  }

  final String name() {
    return name;
  }

  final int number() {
    return number;
  }

  final ValueCodec<Object> codec() {
    return codec;
  }

  final int tag() {
    return tag;
  }

  /** Writes this field of {@code pojo}, tag included; nothing when it is null or zero. */
  public abstract void write(ProtoWriter out, Object pojo) throws IOException;

  /** Reads this field's value (of a class) into {@code pojo}. */
  public void readInto(Object pojo, CodedInputStream in, int tag, DecodeContext context)
      throws IOException {
    set(pojo, read(in, tag, context));
  }

  /** Reads this field's value. */
  public final Object read(CodedInputStream in, int tag, DecodeContext context)
      throws IOException {
    try {
      return codec.readField(in, tag, context);
    } catch (CodecException e) {
      throw withField(e);
    }
  }

  /** Sets the field of a class to the value of an absent field: null, zero or empty. */
  public final void setAbsent(Object pojo) throws CodecException {
    set(pojo, codec.absentValue());
  }

  /** The value of an absent field: null, zero or empty. */
  public final Object absentValue() {
    return codec.absentValue();
  }

  /** Sets the field of a class to {@code value}. */
  protected abstract void set(Object pojo, Object value) throws CodecException;

  /** The common encoding of a field whose value is an object. */
  public final void writeObject(ProtoWriter out, Object value) throws IOException {
    if (codec.isAbsent(value)) {
      return;
    }
    out.writeVarint32(tag);
    try {
      codec.write(out, value);
    } catch (CodecException e) {
      throw withField(e);
    } catch (ClassCastException e) {
      throw new CodecException(
          "field '" + name + "' holds a " + value.getClass().getName()
              + ", which does not match its declared type", e);
    }
  }

  /** Names this field in an error, unless a field nested deeper is already named. */
  private CodecException withField(CodecException e) {
    if (e.getMessage().startsWith("field '")) {
      return e;
    }
    return new CodecException("field '" + name + "': " + e.getMessage(), e);
  }

  /** Whether a boxed primitive is zero (or false): primitives leave zero out, as protobuf does. */
  static boolean isZero(Object value) {
    if (value instanceof Boolean) {
      return !(Boolean) value;
    }
    if (value instanceof Character) {
      return (Character) value == 0;
    }
    if (value instanceof Double || value instanceof Float) {
      return Double.doubleToRawLongBits(((Number) value).doubleValue()) == 0;
    }
    return ((Number) value).longValue() == 0;
  }

  final CodecException accessFailed(Exception e) {
    return new CodecException("cannot access field '" + name + "': " + e, e);
  }

  /**
   * A field of a class of an object type, or a less common primitive (boxed, zero left out).
   * Generated subclasses override the three accessors for object types.
   */
  public static class ObjectField extends PojoField {
    private final Field field;
    private final boolean primitive;

    protected ObjectField(Field field, int number, ValueCodec<?> codec) {
      super(field.getName(), number, codec);
      this.field = field;
      this.primitive = field.getType().isPrimitive();
    }

    @Override
    public void write(ProtoWriter out, Object pojo) throws IOException {
      Object value;
      try {
        value = field.get(pojo);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
      if (!primitive || !isZero(value)) {
        writeObject(out, value);
      }
    }

    @Override
    protected void set(Object pojo, Object value) throws CodecException {
      try {
        field.set(pojo, value);
      } catch (IllegalAccessException | IllegalArgumentException e) {
        throw accessFailed(e);
      }
    }
  }

  /** A {@code int} field, without boxing. */
  public static class IntField extends PojoField {
    private final Field field;

    protected IntField(Field field, int number, ValueCodec<?> codec) {
      super(field.getName(), number, codec);
      this.field = field;
    }

    @Override
    public void write(ProtoWriter out, Object pojo) throws IOException {
      int value;
      try {
        value = field.getInt(pojo);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
      writeInt(out, value);
    }

    /** Writes {@code value} with this field's tag; nothing for zero. */
    public final void writeInt(ProtoWriter out, int value) throws IOException {
      if (value != 0) {
        out.writeVarint32(tag());
        out.writeInt32(value);
      }
    }

    @Override
    public void readInto(Object pojo, CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      int value = readInt(in, tag, context);
      try {
        field.setInt(pojo, value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }

    /** Reads this field's value: directly for its own tag, through the codec otherwise. */
    public final int readInt(CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      return tag == tag() ? in.readInt32() : (Integer) read(in, tag, context);
    }

    @Override
    protected void set(Object pojo, Object value) throws CodecException {
      try {
        field.setInt(pojo, (Integer) value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }
  }

  /** A {@code long} field, without boxing. */
  public static class LongField extends PojoField {
    private final Field field;

    protected LongField(Field field, int number, ValueCodec<?> codec) {
      super(field.getName(), number, codec);
      this.field = field;
    }

    @Override
    public void write(ProtoWriter out, Object pojo) throws IOException {
      long value;
      try {
        value = field.getLong(pojo);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
      writeLong(out, value);
    }

    /** Writes {@code value} with this field's tag; nothing for zero. */
    public final void writeLong(ProtoWriter out, long value) throws IOException {
      if (value != 0) {
        out.writeVarint32(tag());
        out.writeVarint64(value);
      }
    }

    @Override
    public void readInto(Object pojo, CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      long value = readLong(in, tag, context);
      try {
        field.setLong(pojo, value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }

    /** Reads this field's value: directly for its own tag, through the codec otherwise. */
    public final long readLong(CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      return tag == tag() ? in.readInt64() : (Long) read(in, tag, context);
    }

    @Override
    protected void set(Object pojo, Object value) throws CodecException {
      try {
        field.setLong(pojo, (Long) value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }
  }

  /** A {@code double} field, without boxing. */
  public static class DoubleField extends PojoField {
    private final Field field;

    protected DoubleField(Field field, int number, ValueCodec<?> codec) {
      super(field.getName(), number, codec);
      this.field = field;
    }

    @Override
    public void write(ProtoWriter out, Object pojo) throws IOException {
      double value;
      try {
        value = field.getDouble(pojo);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
      writeDouble(out, value);
    }

    /** Writes {@code value} with this field's tag; nothing for zero. */
    public final void writeDouble(ProtoWriter out, double value) throws IOException {
      if (Double.doubleToRawLongBits(value) != 0) {
        out.writeVarint32(tag());
        out.writeDouble(value);
      }
    }

    @Override
    public void readInto(Object pojo, CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      double value = readDouble(in, tag, context);
      try {
        field.setDouble(pojo, value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }

    /** Reads this field's value: directly for its own tag, through the codec otherwise. */
    public final double readDouble(CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      return tag == tag() ? in.readDouble() : (Double) read(in, tag, context);
    }

    @Override
    protected void set(Object pojo, Object value) throws CodecException {
      try {
        field.setDouble(pojo, (Double) value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }
  }

  /** A {@code boolean} field, without boxing. */
  public static class BooleanField extends PojoField {
    private final Field field;

    protected BooleanField(Field field, int number, ValueCodec<?> codec) {
      super(field.getName(), number, codec);
      this.field = field;
    }

    @Override
    public void write(ProtoWriter out, Object pojo) throws IOException {
      boolean value;
      try {
        value = field.getBoolean(pojo);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
      writeBoolean(out, value);
    }

    /** Writes {@code value} with this field's tag; nothing for zero. */
    public final void writeBoolean(ProtoWriter out, boolean value) throws IOException {
      if (value) {
        out.writeVarint32(tag());
        out.writeBool(true);
      }
    }

    @Override
    public void readInto(Object pojo, CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      boolean value = readBoolean(in, tag, context);
      try {
        field.setBoolean(pojo, value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }

    /** Reads this field's value: directly for its own tag, through the codec otherwise. */
    public final boolean readBoolean(CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      return tag == tag() ? in.readBool() : (Boolean) read(in, tag, context);
    }

    @Override
    protected void set(Object pojo, Object value) throws CodecException {
      try {
        field.setBoolean(pojo, (Boolean) value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }
  }

  /** A {@code float} field, without boxing. */
  public static class FloatField extends PojoField {
    private final Field field;

    protected FloatField(Field field, int number, ValueCodec<?> codec) {
      super(field.getName(), number, codec);
      this.field = field;
    }

    @Override
    public void write(ProtoWriter out, Object pojo) throws IOException {
      float value;
      try {
        value = field.getFloat(pojo);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
      writeFloat(out, value);
    }

    /** Writes {@code value} with this field's tag; nothing for zero. */
    public final void writeFloat(ProtoWriter out, float value) throws IOException {
      if (Float.floatToRawIntBits(value) != 0) {
        out.writeVarint32(tag());
        out.writeFloat(value);
      }
    }

    @Override
    public void readInto(Object pojo, CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      float value = readFloat(in, tag, context);
      try {
        field.setFloat(pojo, value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }

    /** Reads this field's value: directly for its own tag, through the codec otherwise. */
    public final float readFloat(CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      return tag == tag() ? in.readFloat() : (Float) read(in, tag, context);
    }

    @Override
    protected void set(Object pojo, Object value) throws CodecException {
      try {
        field.setFloat(pojo, (Float) value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }
  }

  /** A {@code String} field: written and read without going through a codec object. */
  public static class StringField extends PojoField {
    private final Field field;

    protected StringField(Field field, int number, ValueCodec<?> codec) {
      super(field.getName(), number, codec);
      this.field = field;
    }

    @Override
    public void write(ProtoWriter out, Object pojo) throws IOException {
      Object value;
      try {
        value = field.get(pojo);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
      writeString(out, (String) value);
    }

    /** Writes {@code value} with this field's tag; nothing for null. */
    public final void writeString(ProtoWriter out, String value) throws IOException {
      if (value != null) {
        out.writeVarint32(tag());
        out.writeString(value);
      }
    }

    @Override
    public void readInto(Object pojo, CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      String value = readString(in, tag, context);
      try {
        field.set(pojo, value);
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
    }

    /** Reads this field's value: directly for its own tag, through the codec otherwise. */
    public final String readString(CodedInputStream in, int tag, DecodeContext context)
        throws IOException {
      return tag == tag() ? Utf8Strings.read(in) : (String) read(in, tag, context);
    }

    @Override
    protected void set(Object pojo, Object value) throws CodecException {
      try {
        field.set(pojo, value);
      } catch (IllegalAccessException | IllegalArgumentException e) {
        throw accessFailed(e);
      }
    }
  }

  /** A record component: read through its accessor; set only through the constructor. */
  static final class RecordComponentField extends PojoField {
    private final Method accessor;
    private final boolean primitive;

    RecordComponentField(String name, Method accessor, int number, ValueCodec<?> codec) {
      super(name, number, codec);
      this.accessor = accessor;
      this.primitive = accessor.getReturnType().isPrimitive();
    }

    @Override
    public void write(ProtoWriter out, Object pojo) throws IOException {
      Object value;
      try {
        value = accessor.invoke(pojo);
      } catch (InvocationTargetException e) {
        Class<?> record = accessor.getDeclaringClass();
        throw new CodecException(
            "the accessor method " + record.getSimpleName() + "." + name() + "() of record "
                + record.getName() + " threw " + e.getCause(),
            e.getCause());
      } catch (IllegalAccessException e) {
        throw accessFailed(e);
      }
      if (!primitive || !isZero(value)) {
        writeObject(out, value);
      }
    }

    @Override
    protected void set(Object pojo, Object value) {
      throw new IllegalStateException("records are created whole, through their constructor");
    }
  }
}
