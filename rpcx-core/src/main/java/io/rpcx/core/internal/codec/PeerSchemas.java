package io.rpcx.core.internal.codec;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The schemas a peer announced on one connection, and what decoders derived from them.
 *
 * <p>A sender numbers the fields of each POJO by its own class (sorted names, 1..n) and describes
 * that numbering in a SCHEMA frame before first using the type on a connection. The receiver maps
 * the sender's numbers to its own fields by name, so the two sides may have different versions of
 * a class. Without a schema for a type, the receiver assumes the sender numbers it as it does.
 * Thread-safe: schemas arrive on the event loop and are read by decoding threads.
 */
public final class PeerSchemas {
  private final Map<String, TypeSchema> schemas = new ConcurrentHashMap<>();
  private final Map<ValueCodec<?>, Object> derived = new ConcurrentHashMap<>();

  /**
   * Records the peer's schema of a type, replacing an earlier one of the same name; returns {@code
   * false} (recording nothing) if that would make more than {@code maxTypes} types.
   */
  public boolean put(TypeSchema schema, int maxTypes) {
    if (!schemas.containsKey(schema.name()) && schemas.size() >= maxTypes) {
      return false;
    }
    TypeSchema previous = schemas.put(schema.name(), schema);
    if (previous != null && !previous.equals(schema)) {
      derived.keySet().removeIf(codec -> codec.typeName().equals(schema.name()));
    }
    return true;
  }

  /**
   * What {@code derive} makes of the peer's schema of {@code codec}'s type ({@code null} when the
   * peer announced none), computed once per codec until the peer announces the type anew.
   */
  @SuppressWarnings("unchecked")
  public <T> T derived(ValueCodec<?> codec, Function<TypeSchema, T> derive) {
    Object value = derived.get(codec);
    if (value == null) {
      value = derive.apply(schemas.get(codec.typeName()));
      derived.put(codec, value);
    }
    return (T) value;
  }
}
