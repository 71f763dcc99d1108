package io.rpcx.tests.architecture;

import io.rpcx.core.internal.codec.CodecRegistry;

/** An API type (public, in a public package) that names an internal type: ArchitectureTest's. */
public final class LeakyApi {
  /** Hands out an internal type. */
  public CodecRegistry codecs() {
    return null;
  }
}
