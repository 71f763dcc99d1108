package io.rpcx.core.internal.codec;

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
  /** The POJO codecs met in this decoding and their mappings: a POJO list meets the same few. */
  private PojoCodec<?>[] recentCodecs; // made at the first POJO read with the peer's schemas
  private FieldMapping[] recentMappings;
  private int nextRecent;

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

  /** How the sender numbers the fields of {@code codec}'s type. */
  FieldMapping mapping(PojoCodec<?> codec) {
    if (peer == null) {
      return codec.identityMapping();
    }
    if (recentCodecs == null) {
      recentCodecs = new PojoCodec<?>[RECENT];
      recentMappings = new FieldMapping[RECENT];
    }
    for (int i = 0; i < RECENT; i++) {
      if (recentCodecs[i] == codec) {
        return recentMappings[i];
      }
    }
    FieldMapping mapping = peer.mapping(codec);
    recentCodecs[nextRecent] = codec;
    recentMappings[nextRecent] = mapping;
    nextRecent = (nextRecent + 1) % RECENT;
    return mapping;
  }
}
