package io.rpcx.core.internal.codec;

/**
 * State of one decoding: how deep the value being read is nested, checked against a limit so that a
 * hostile peer cannot exhaust the stack. One instance serves one decoding on one thread.
 */
public final class DecodeContext {
  /** Default limit on nested messages inside one value (protobuf-java's own default is 100). */
  public static final int DEFAULT_MAX_DEPTH = 64;

  private final int maxDepth;
  private int depth;

  public DecodeContext(int maxDepth) {
    this.maxDepth = maxDepth;
  }

  public static DecodeContext withDefaults() {
    return new DecodeContext(DEFAULT_MAX_DEPTH);
  }

  /** Enters one level of nesting while reading a value of type {@code typeName}. */
  public void enter(String typeName) throws CodecException {
    if (++depth > maxDepth) {
      throw new CodecException(
          "value nested deeper than " + maxDepth + " levels (at " + typeName + ")");
    }
  }

  /** Leaves the level entered last. */
  public void exit() {
    depth--;
  }
}
