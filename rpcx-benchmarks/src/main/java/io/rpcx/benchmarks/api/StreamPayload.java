package io.rpcx.benchmarks.api;

import io.rpcx.benchmarks.model.Payloads;
import java.util.Arrays;

/**
 * The element of a server stream in the streaming benchmark: an ASCII string of a fixed length
 * ({@link Payloads#text}), the same strings the {@code echo16} and {@code string1k} workloads send,
 * so the stream cells compare with the unary ones. Strings rather than {@code byte[]}: they are
 * what this module's users send at these sizes, and both ends pay for UTF-8 in every system alike.
 */
public enum StreamPayload {
  /** A 16-character string, 16 bytes in UTF-8. */
  TEXT_16B("text16", Payloads.SMALL_STRING),
  /** A 1024-character string, 1 KiB in UTF-8. */
  TEXT_1K("text1k", Payloads.KIB);

  private final String id;
  private final int length;

  StreamPayload(String id, int length) {
    this.id = id;
    this.length = length;
  }

  /** The name used on command lines and in results ({@code -p payload=text16}). */
  public String id() {
    return id;
  }

  /** Characters (and UTF-8 bytes) of each element. */
  public int length() {
    return length;
  }

  /** The payload whose {@link #id()} is {@code id}. */
  public static StreamPayload byId(String id) {
    for (StreamPayload p : values()) {
      if (p.id.equals(id)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown stream payload '" + id + "' (expected one of: "
            + Arrays.toString(Arrays.stream(values()).map(StreamPayload::id).toArray()) + ")");
  }
}
