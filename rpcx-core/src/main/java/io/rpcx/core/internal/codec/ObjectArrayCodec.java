package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An array of objects, encoded exactly like a collection of its elements. */
final class ObjectArrayCodec<E> extends MessageCodec<E[]> {
  private final ValueCodec<E> element;
  private final Class<?> componentType;
  private final int elementTag;

  @SuppressWarnings("unchecked")
  ObjectArrayCodec(ValueCodec<?> element, Class<?> componentType) {
    super("list<" + element.typeName() + ">");
    this.element = (ValueCodec<E>) element;
    this.componentType = componentType;
    this.elementTag =
        (CollectionCodec.ELEMENTS << 3) | (element.isPackable() ? LEN : element.wireType());
  }

  @Override
  protected void writePayload(ProtoWriter out, E[] values) throws IOException {
    CollectionCodec.writeElements(out, Arrays.asList(values), element, elementTag);
  }

  @Override
  @SuppressWarnings("unchecked")
  protected E[] readPayload(CodedInputStream in, DecodeContext context) throws IOException {
    ArrayList<Object> values =
        CollectionCodec.readElements(in, (ValueCodec<Object>) element, context);
    return values.toArray((E[]) Array.newInstance(componentType, values.size()));
  }

  @Override
  public List<ValueCodec<?>> nestedCodecs() {
    return List.of(element);
  }
}
