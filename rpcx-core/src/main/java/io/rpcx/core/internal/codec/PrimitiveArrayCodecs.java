package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.Arrays;

/**
 * Arrays of primitives, without boxing: a nested message whose field 1 holds the packed elements,
 * wire-compatible with a collection of the boxed type ({@code int[]} and {@code List<Integer>} are
 * both {@code list<int32>}). {@code byte[]} is not here: it is the scalar {@code bytes}.
 */
final class PrimitiveArrayCodecs {
  private PrimitiveArrayCodecs() {}

  static ValueCodec<?> forComponent(Class<?> component) {
    if (component == int.class) {
      return new IntArrayCodec();
    }
    if (component == long.class) {
      return new LongArrayCodec();
    }
    if (component == double.class) {
      return new DoubleArrayCodec();
    }
    if (component == float.class) {
      return new FloatArrayCodec();
    }
    if (component == boolean.class) {
      return new BooleanArrayCodec();
    }
    if (component == short.class) {
      return new ShortArrayCodec();
    }
    if (component == char.class) {
      return new CharArrayCodec();
    }
    return null;
  }

  /** Common layout: one packed field 1; elements also accepted unpacked, as protobuf requires. */
  private abstract static class PackedArrayCodec<A> extends MessageCodec<A> {
    private final int elementWireType;

    PackedArrayCodec(String elementType, int elementWireType) {
      super("list<" + elementType + ">");
      this.elementWireType = elementWireType;
    }

    abstract int length(A array);

    abstract void writeElements(ProtoWriter out, A array);

    /** Reads one element and stores it at {@code index}, returning the (possibly grown) array. */
    abstract A readElement(CodedInputStream in, A array, int index) throws IOException;

    abstract A newArray(int capacity);

    abstract A trim(A array, int length);

    @Override
    protected void writePayload(ProtoWriter out, A array) {
      if (length(array) == 0) {
        return;
      }
      out.writeTag(CollectionCodec.ELEMENTS, LEN);
      long mark = out.beginLengthDelimited();
      writeElements(out, array);
      out.endLengthDelimited(mark);
    }

    @Override
    protected A readPayload(CodedInputStream in, DecodeContext context) throws IOException {
      A array = newArray(8);
      int count = 0;
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        if (WireFormat.getTagFieldNumber(tag) != CollectionCodec.ELEMENTS) {
          if (WireFormat.getTagFieldNumber(tag) == CollectionCodec.NULL_POSITIONS) {
            throw new CodecException(typeName() + " holds nulls, which a primitive array cannot");
          }
          in.skipField(tag);
          continue;
        }
        int wireType = WireFormat.getTagWireType(tag);
        if (wireType == LEN) {
          int oldLimit = in.pushLimit(in.readRawVarint32());
          while (in.getBytesUntilLimit() > 0) {
            array = readElement(in, array, count++);
          }
          in.popLimit(oldLimit);
        } else if (wireType == elementWireType) {
          array = readElement(in, array, count++);
        } else {
          throw new CodecException(
              "elements of " + typeName() + " have wire type " + wireTypeName(wireType));
        }
      }
      return trim(array, count);
    }
  }

  static final class IntArrayCodec extends PackedArrayCodec<int[]> {
    IntArrayCodec() {
      super("int32", VARINT);
    }

    @Override
    int length(int[] array) {
      return array.length;
    }

    @Override
    void writeElements(ProtoWriter out, int[] array) {
      for (int value : array) {
        out.writeInt32(value);
      }
    }

    @Override
    int[] readElement(CodedInputStream in, int[] array, int index) throws IOException {
      int[] target = index == array.length ? Arrays.copyOf(array, index * 2) : array;
      target[index] = in.readInt32();
      return target;
    }

    @Override
    int[] newArray(int capacity) {
      return new int[capacity];
    }

    @Override
    int[] trim(int[] array, int length) {
      return array.length == length ? array : Arrays.copyOf(array, length);
    }
  }

  static final class LongArrayCodec extends PackedArrayCodec<long[]> {
    LongArrayCodec() {
      super("int64", VARINT);
    }

    @Override
    int length(long[] array) {
      return array.length;
    }

    @Override
    void writeElements(ProtoWriter out, long[] array) {
      for (long value : array) {
        out.writeVarint64(value);
      }
    }

    @Override
    long[] readElement(CodedInputStream in, long[] array, int index) throws IOException {
      long[] target = index == array.length ? Arrays.copyOf(array, index * 2) : array;
      target[index] = in.readInt64();
      return target;
    }

    @Override
    long[] newArray(int capacity) {
      return new long[capacity];
    }

    @Override
    long[] trim(long[] array, int length) {
      return array.length == length ? array : Arrays.copyOf(array, length);
    }
  }

  static final class DoubleArrayCodec extends PackedArrayCodec<double[]> {
    DoubleArrayCodec() {
      super("double", FIXED64);
    }

    @Override
    int length(double[] array) {
      return array.length;
    }

    @Override
    void writeElements(ProtoWriter out, double[] array) {
      for (double value : array) {
        out.writeDouble(value);
      }
    }

    @Override
    double[] readElement(CodedInputStream in, double[] array, int index) throws IOException {
      double[] target = index == array.length ? Arrays.copyOf(array, index * 2) : array;
      target[index] = in.readDouble();
      return target;
    }

    @Override
    double[] newArray(int capacity) {
      return new double[capacity];
    }

    @Override
    double[] trim(double[] array, int length) {
      return array.length == length ? array : Arrays.copyOf(array, length);
    }
  }

  static final class FloatArrayCodec extends PackedArrayCodec<float[]> {
    FloatArrayCodec() {
      super("float", FIXED32);
    }

    @Override
    int length(float[] array) {
      return array.length;
    }

    @Override
    void writeElements(ProtoWriter out, float[] array) {
      for (float value : array) {
        out.writeFloat(value);
      }
    }

    @Override
    float[] readElement(CodedInputStream in, float[] array, int index) throws IOException {
      float[] target = index == array.length ? Arrays.copyOf(array, index * 2) : array;
      target[index] = in.readFloat();
      return target;
    }

    @Override
    float[] newArray(int capacity) {
      return new float[capacity];
    }

    @Override
    float[] trim(float[] array, int length) {
      return array.length == length ? array : Arrays.copyOf(array, length);
    }
  }

  static final class BooleanArrayCodec extends PackedArrayCodec<boolean[]> {
    BooleanArrayCodec() {
      super("bool", VARINT);
    }

    @Override
    int length(boolean[] array) {
      return array.length;
    }

    @Override
    void writeElements(ProtoWriter out, boolean[] array) {
      for (boolean value : array) {
        out.writeBool(value);
      }
    }

    @Override
    boolean[] readElement(CodedInputStream in, boolean[] array, int index) throws IOException {
      boolean[] target = index == array.length ? Arrays.copyOf(array, index * 2) : array;
      target[index] = in.readBool();
      return target;
    }

    @Override
    boolean[] newArray(int capacity) {
      return new boolean[capacity];
    }

    @Override
    boolean[] trim(boolean[] array, int length) {
      return array.length == length ? array : Arrays.copyOf(array, length);
    }
  }

  static final class ShortArrayCodec extends PackedArrayCodec<short[]> {
    ShortArrayCodec() {
      super("int32", VARINT);
    }

    @Override
    int length(short[] array) {
      return array.length;
    }

    @Override
    void writeElements(ProtoWriter out, short[] array) {
      for (short value : array) {
        out.writeInt32(value);
      }
    }

    @Override
    short[] readElement(CodedInputStream in, short[] array, int index) throws IOException {
      int value = in.readInt32();
      if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
        throw new CodecException("value " + value + " is out of range for short");
      }
      short[] target = index == array.length ? Arrays.copyOf(array, index * 2) : array;
      target[index] = (short) value;
      return target;
    }

    @Override
    short[] newArray(int capacity) {
      return new short[capacity];
    }

    @Override
    short[] trim(short[] array, int length) {
      return array.length == length ? array : Arrays.copyOf(array, length);
    }
  }

  static final class CharArrayCodec extends PackedArrayCodec<char[]> {
    CharArrayCodec() {
      super("char", VARINT);
    }

    @Override
    int length(char[] array) {
      return array.length;
    }

    @Override
    void writeElements(ProtoWriter out, char[] array) {
      for (char value : array) {
        out.writeVarint32(value);
      }
    }

    @Override
    char[] readElement(CodedInputStream in, char[] array, int index) throws IOException {
      int value = in.readUInt32();
      if (value < Character.MIN_VALUE || value > Character.MAX_VALUE) {
        throw new CodecException("value " + value + " is out of range for char");
      }
      char[] target = index == array.length ? Arrays.copyOf(array, index * 2) : array;
      target[index] = (char) value;
      return target;
    }

    @Override
    char[] newArray(int capacity) {
      return new char[capacity];
    }

    @Override
    char[] trim(char[] array, int length) {
      return array.length == length ? array : Arrays.copyOf(array, length);
    }
  }
}
