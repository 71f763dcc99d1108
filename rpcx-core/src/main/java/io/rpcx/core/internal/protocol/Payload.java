package io.rpcx.core.internal.protocol;

import java.nio.ByteBuffer;

/**
 * A received frame payload: a view of its bytes that stays valid until {@link #release()}. The
 * transport hands one over per frame and whoever holds it last releases it, exactly once.
 */
public interface Payload {

  /** The payload bytes, from position to limit. Callers must not change position or limit. */
  ByteBuffer buffer();

  /** Gives the memory back; the buffer must not be used afterwards. */
  void release();
}
