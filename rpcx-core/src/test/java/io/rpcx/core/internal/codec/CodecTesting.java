package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.internal.model.StandardCodecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;

/** Encodes and decodes values the way a call does, for codec tests. */
public final class CodecTesting {
  private CodecTesting() {}

  /** The wrapper-message bytes of {@code value} declared as {@code type}. */
  public static byte[] encode(CodecRegistry registry, Type type, Object value) {
    @SuppressWarnings("unchecked")
    ValueCodec<Object> codec = (ValueCodec<Object>) registry.codecFor(type);
    try {
      ByteArrayProtoWriter out = new ByteArrayProtoWriter();
      Values.write(out, codec, value);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Decodes wrapper-message bytes as {@code type}; absent values become the absent value. */
  public static Object decode(CodecRegistry registry, Type type, byte[] bytes, PeerSchemas peer)
      throws IOException {
    ValueCodec<?> codec = registry.codecFor(type);
    Object value =
        Values.read(codec, CodedInputStream.newInstance(bytes), new DecodeContext(64, peer));
    return value == null ? codec.absentValue() : value;
  }

  public static Object roundTrip(Type type, Object value) throws IOException {
    CodecRegistry registry = StandardCodecs.registry();
    return decode(registry, type, encode(registry, type, value), null);
  }
}
