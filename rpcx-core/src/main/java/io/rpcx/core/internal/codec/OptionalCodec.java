package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * {@code Optional<T>} on the wire is just {@code T}: an empty optional is an absent field. The
 * type descriptor is {@code T}'s, so a client declaring {@code String} and a server declaring {@code
 * Optional<String>} interoperate.
 */
final class OptionalCodec<T> extends ValueCodec<Optional<T>> {
  private final ValueCodec<T> value;

  @SuppressWarnings("unchecked")
  OptionalCodec(ValueCodec<?> value) {
    super(value.typeName(), value.wireType());
    this.value = (ValueCodec<T>) value;
  }

  @Override
  public boolean isAbsent(Optional<T> optional) {
    return optional == null || optional.isEmpty();
  }

  @Override
  public Optional<T> absentValue() {
    return Optional.empty();
  }

  @Override
  public void write(ProtoWriter out, Optional<T> optional) throws IOException {
    value.write(out, optional.get());
  }

  @Override
  public Optional<T> read(CodedInputStream in, DecodeContext context) throws IOException {
    return Optional.ofNullable(value.read(in, context));
  }

  @Override
  public boolean isBulkBytes() {
    return value.isBulkBytes();
  }

  @Override
  public List<ValueCodec<?>> nestedCodecs() {
    return List.of(value);
  }
}
