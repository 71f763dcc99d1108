package io.rpcx.core.internal.model;

import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.pojo.PojoCodecs;

/**
 * The codecs of every value RPCX carries: scalars, protobuf messages, JDK types and containers,
 * then POJOs and records, asked in that order. One registry per client or server.
 */
public final class StandardCodecs {
  private StandardCodecs() {}

  /** A new registry of the standard codecs. */
  public static CodecRegistry registry() {
    return CodecRegistry.withBuiltIns(new PojoCodecs());
  }
}
