package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;

/**
 * A received frame payload, read in place: possibly spread over several buffers (a large frame is
 * assembled from the reads that brought it, without copying), valid until {@link #release()}. The
 * transport hands one over per frame and whoever holds it last releases it, exactly once.
 */
public interface Payload {

  /** Number of payload bytes. */
  int length();

  /** A protobuf input over {@code length} bytes from {@code offset}, read in place. */
  CodedInputStream input(int offset, int length);

  /**
   * A protobuf input over an argument or result value: {@link #input} by default; a payload in
   * direct memory may copy a small value to the heap first, where protobuf-java decodes faster.
   */
  default CodedInputStream valueInput(int offset, int length) {
    return input(offset, length);
  }

  /** Whether the bytes from {@code offset} are exactly {@code expected}. */
  boolean regionEquals(int offset, byte[] expected);

  /** A copy of {@code length} bytes from {@code offset}. */
  byte[] bytes(int offset, int length);

  /** Gives the memory back; the payload must not be used afterwards. */
  void release();
}
