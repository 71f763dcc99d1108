package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import java.util.List;

/**
 * The type of a stream argument, a {@code Flow.Publisher<T>} parameter (docs/PROTOCOL.md, section
 * 5.1): its descriptor is {@code stream<T>} and its {@code Argument} in the request has no value;
 * the elements travel in {@code STREAM_MESSAGE} frames, each written and read with {@link
 * #element()}. It reaches the element's codec ({@link #nestedCodecs()}), so the SCHEMA sent before
 * the request describes the element's POJO types. Immutable and thread-safe.
 */
public final class StreamCodec extends ValueCodec<Object> {
  private final ValueCodec<Object> element;

  /** The stream of elements written and read with {@code element}. */
  public StreamCodec(ValueCodec<Object> element) {
    super("stream<" + element.typeName() + ">", LEN);
    this.element = element;
  }

  /** The codec of one element. */
  public ValueCodec<Object> element() {
    return element;
  }

  /** A stream argument is never written into the request. */
  @Override
  public boolean isAbsent(Object value) {
    return true;
  }

  @Override
  public void write(ProtoWriter out, Object value) {
    throw new IllegalStateException("a stream argument has no value in the request");
  }

  @Override
  public Object read(CodedInputStream in, DecodeContext context) throws CodecException {
    throw new CodecException("a stream argument (" + typeName() + ") carries no value");
  }

  @Override
  public List<ValueCodec<?>> nestedCodecs() {
    return List.of(element);
  }
}
