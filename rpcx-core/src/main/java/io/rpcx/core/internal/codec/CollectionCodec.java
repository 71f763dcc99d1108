package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * A collection as a nested message: field 1 holds the non-null elements in order (packed for
 * numeric elements), field 2 the packed positions of null elements, if any.
 */
final class CollectionCodec<E> extends MessageCodec<Collection<E>> {
  static final int ELEMENTS = 1;
  static final int NULL_POSITIONS = 2;

  private final ValueCodec<E> element;
  private final Function<ArrayList<Object>, Collection<Object>> finisher;
  private final int elementTag;

  @SuppressWarnings("unchecked")
  CollectionCodec(
      ValueCodec<?> element, Function<ArrayList<Object>, Collection<Object>> finisher) {
    super("list<" + element.typeName() + ">");
    this.element = (ValueCodec<E>) element;
    this.finisher = finisher;
    this.elementTag = (ELEMENTS << 3) | (element.isPackable() ? LEN : element.wireType());
  }

  @Override
  protected void writePayload(ProtoWriter out, Collection<E> values) throws IOException {
    writeElements(out, values, element, elementTag);
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Collection<E> readPayload(CodedInputStream in, DecodeContext context)
      throws IOException {
    ArrayList<Object> values = readElements(in, (ValueCodec<Object>) element, context);
    try {
      return (Collection<E>) finisher.apply(values);
    } catch (RuntimeException e) {
      throw new CodecException("cannot build " + typeName() + ": " + e, e);
    }
  }

  /** Writes the elements and the null positions of {@code values}; shared with arrays. */
  static <E> void writeElements(
      ProtoWriter out, Iterable<E> values, ValueCodec<E> element, int elementTag)
      throws IOException {
    boolean anyNull = false;
    if (element.isPackable()) {
      long mark = -1;
      for (E value : values) {
        if (value == null) {
          anyNull = true;
        } else {
          if (mark < 0) {
            out.writeVarint32(elementTag);
            mark = out.beginLengthDelimited();
          }
          element.write(out, value);
        }
      }
      if (mark >= 0) {
        out.endLengthDelimited(mark);
      }
    } else {
      for (E value : values) {
        if (value == null) {
          anyNull = true;
        } else {
          out.writeVarint32(elementTag);
          element.write(out, value);
        }
      }
    }
    if (anyNull) {
      out.writeTag(NULL_POSITIONS, LEN);
      long mark = out.beginLengthDelimited();
      int index = 0;
      for (E value : values) {
        if (value == null) {
          out.writeVarint32(index);
        }
        index++;
      }
      out.endLengthDelimited(mark);
    }
  }

  /** Reads elements and null positions; nulls are put back where they were. */
  static ArrayList<Object> readElements(
      CodedInputStream in, ValueCodec<Object> element, DecodeContext context) throws IOException {
    ArrayList<Object> values = new ArrayList<>();
    int[] nullPositions = null;
    int nullCount = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      int field = WireFormat.getTagFieldNumber(tag);
      int wireType = WireFormat.getTagWireType(tag);
      if (field == ELEMENTS) {
        if (element.isPackable() && wireType == LEN) {
          int oldLimit = in.pushLimit(in.readRawVarint32());
          while (in.getBytesUntilLimit() > 0) {
            values.add(element.read(in, context));
          }
          in.popLimit(oldLimit);
        } else {
          values.add(element.readField(in, tag, context));
        }
      } else if (field == NULL_POSITIONS) {
        if (nullPositions == null) {
          nullPositions = new int[8];
        }
        if (wireType == LEN) {
          int oldLimit = in.pushLimit(in.readRawVarint32());
          while (in.getBytesUntilLimit() > 0) {
            nullPositions = append(nullPositions, nullCount++, in.readUInt32());
          }
          in.popLimit(oldLimit);
        } else if (wireType == VARINT) {
          nullPositions = append(nullPositions, nullCount++, in.readUInt32());
        } else {
          throw new CodecException("null positions must be uint32 values");
        }
      } else {
        in.skipField(tag);
      }
    }
    return nullCount == 0 ? values : withNulls(values, nullPositions, nullCount);
  }

  private static int[] append(int[] array, int index, int value) {
    int[] target = index == array.length ? java.util.Arrays.copyOf(array, index * 2) : array;
    target[index] = value;
    return target;
  }

  private static ArrayList<Object> withNulls(ArrayList<Object> values, int[] nulls, int count)
      throws CodecException {
    int total = values.size() + count;
    ArrayList<Object> result = new ArrayList<>(total);
    int next = 0;
    int previous = -1;
    for (int n = 0; n < count; n++) {
      int position = nulls[n];
      if (position <= previous || position >= total) {
        throw new CodecException(
            "null position " + Integer.toUnsignedString(position) + " is out of order or outside"
                + " a collection of " + total + " elements");
      }
      while (result.size() < position) {
        result.add(values.get(next++));
      }
      result.add(null);
      previous = position;
    }
    while (next < values.size()) {
      result.add(values.get(next++));
    }
    return result;
  }


  @Override
  public List<ValueCodec<?>> nestedCodecs() {
    return List.of(element);
  }
}
