package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A map as a nested message holding one entry message per mapping in field 1, the key in the
 * entry's field 1 and the value in its field 2, the layout of a protobuf {@code map<K, V>} field. An
 * absent key or value is null.
 */
final class MapCodec<K, V> extends MessageCodec<Map<K, V>> {
  private static final int ENTRY = 1;
  private static final int KEY = 1;
  private static final int VALUE = 2;

  private final ValueCodec<K> key;
  private final ValueCodec<V> value;
  private final Function<Integer, Map<Object, Object>> factory;

  @SuppressWarnings("unchecked")
  MapCodec(
      ValueCodec<?> key, ValueCodec<?> value, Function<Integer, Map<Object, Object>> factory) {
    super("map<" + key.typeName() + "," + value.typeName() + ">");
    this.key = (ValueCodec<K>) key;
    this.value = (ValueCodec<V>) value;
    this.factory = factory;
  }

  @Override
  protected void writePayload(ProtoWriter out, Map<K, V> map) throws IOException {
    for (Map.Entry<K, V> entry : map.entrySet()) {
      out.writeTag(ENTRY, LEN);
      long mark = out.beginLengthDelimited();
      key.writeField(out, KEY, entry.getKey());
      value.writeField(out, VALUE, entry.getValue());
      out.endLengthDelimited(mark);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Map<K, V> readPayload(CodedInputStream in, DecodeContext context)
      throws IOException {
    Map<Object, Object> map = factory.apply(16);
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      if (WireFormat.getTagFieldNumber(tag) != ENTRY) {
        in.skipField(tag);
        continue;
      }
      if (WireFormat.getTagWireType(tag) != LEN) {
        throw new CodecException("map entries of " + typeName() + " must be messages");
      }
      int oldLimit = in.pushLimit(in.readRawVarint32());
      Object k = key.absentValue();
      Object v = value.absentValue();
      while (true) {
        int entryTag = in.readTag();
        if (entryTag == 0) {
          break;
        }
        int field = WireFormat.getTagFieldNumber(entryTag);
        if (field == KEY) {
          k = key.readField(in, entryTag, context);
        } else if (field == VALUE) {
          v = value.readField(in, entryTag, context);
        } else {
          in.skipField(entryTag);
        }
      }
      in.popLimit(oldLimit);
      try {
        map.put(k, v);
      } catch (RuntimeException e) {
        throw new CodecException("cannot build " + typeName() + ": " + e, e);
      }
    }
    return (Map<K, V>) map;
  }

  @Override
  public List<ValueCodec<?>> nestedCodecs() {
    return List.of(key, value);
  }
}
