package io.rpcx.client.internal.call;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Hashes of routing keys ({@code @RoutingKey} arguments) that are the same in every JVM, so that
 * clients anywhere send a key to the same server: 64-bit FNV-1a over the UTF-8 of strings and enum
 * names, and over the bits of numbers, each finished with MurmurHash3's 64-bit mix.
 */
public final class RoutingKeys {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private RoutingKeys() {}

  /** The hash of a routing key; {@code null} hashes to 0. */
  public static long hash(Object key) {
    if (key == null) {
      return 0;
    }
    if (key instanceof String) {
      return hash((String) key);
    }
    if (key instanceof Enum) {
      return hash(((Enum<?>) key).name());
    }
    if (key instanceof Double) {
      return mix(Double.doubleToLongBits((Double) key));
    }
    if (key instanceof Float) {
      return mix(Float.floatToIntBits((Float) key));
    }
    if (key instanceof Number) {
      return mix(((Number) key).longValue());
    }
    if (key instanceof Boolean) {
      return mix((Boolean) key ? 1 : 0);
    }
    if (key instanceof Character) {
      return mix((Character) key);
    }
    if (key instanceof UUID) {
      UUID uuid = (UUID) key;
      return mix(uuid.getMostSignificantBits() ^ mix(uuid.getLeastSignificantBits()));
    }
    throw new IllegalArgumentException("not a routing key type: " + key.getClass().getName());
  }

  /** The hash of a string's UTF-8 bytes. */
  public static long hash(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    long hash = FNV_OFFSET;
    for (byte b : bytes) {
      hash ^= b & 0xff;
      hash *= FNV_PRIME;
    }
    return mix(hash);
  }

  /** MurmurHash3's fmix64: spreads every input bit over the whole result. */
  static long mix(long value) {
    long h = value;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }
}
