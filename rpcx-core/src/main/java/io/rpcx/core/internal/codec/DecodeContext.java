package io.rpcx.core.internal.codec;

import java.util.function.Function;

/**
 * State of one decoding: how deep the value being read is nested, checked against a limit so that a
 * hostile peer cannot exhaust the stack, and the POJO schemas the peer announced. One instance
 * serves one decoding on one thread.
 */
public final class DecodeContext {
  /** Default limit on nested messages inside one value (protobuf-java's own default is 100). */
  public static final int DEFAULT_MAX_DEPTH = 64;

  private final int maxDepth;
  private final PeerSchemas peer;
  private int depth;
  /** What was derived from the peer's schemas in this decoding: a POJO list meets the same few. */
  private ValueCodec<?>[] recentCodecs; // made at the first use with the peer's schemas
  private Object[] recentDerived;
  private int nextRecent;
  /** The message of the failure whose exception is being rebuilt, or {@code null}. */
  private String exceptionMessage;

  private static final int RECENT = 4;

  /**
   * @param peer the schemas announced by the sender, or {@code null} to assume the sender numbers
   *     POJO fields as this side does
   */
  public DecodeContext(int maxDepth, PeerSchemas peer) {
    this.maxDepth = maxDepth;
    this.peer = peer;
  }

  public static DecodeContext withDefaults() {
    return new DecodeContext(DEFAULT_MAX_DEPTH, null);
  }

  /**
   * This context, for rebuilding the exception of a failure whose message is {@code message}: a
   * declared exception's constructor may take it.
   */
  public DecodeContext exceptionMessage(String message) {
    this.exceptionMessage = message;
    return this;
  }

  /** The message of the failure whose exception is being rebuilt, or {@code null}. */
  public String exceptionMessage() {
    return exceptionMessage;
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

  /**
   * What {@code derive} makes of the sender's schema of {@code codec}'s type ({@code null} when it
   * announced none, or when there is no peer): for a POJO, how the sender numbers its fields.
   */
  @SuppressWarnings("unchecked")
  public <T> T derived(ValueCodec<?> codec, Function<TypeSchema, T> derive) {
    if (peer == null) {
      return derive.apply(null);
    }
    if (recentCodecs == null) {
      recentCodecs = new ValueCodec<?>[RECENT];
      recentDerived = new Object[RECENT];
    }
    for (int i = 0; i < RECENT; i++) {
      if (recentCodecs[i] == codec) {
        return (T) recentDerived[i];
      }
    }
    T value = peer.derived(codec, derive);
    recentCodecs[nextRecent] = codec;
    recentDerived[nextRecent] = value;
    nextRecent = (nextRecent + 1) % RECENT;
    return value;
  }
}
