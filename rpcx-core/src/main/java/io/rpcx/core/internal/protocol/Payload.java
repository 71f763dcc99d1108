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
   * What {@code reader} reads from a protobuf input over an argument or result value of {@code
   * length} bytes from {@code offset}: {@link #input} by default. A payload in direct memory may
   * copy the value to a heap array first, where protobuf-java decodes faster, and reuse that array
   * once {@code reader} returns: what it returns must never share the input's bytes (the codecs
   * copy every {@code bytes} field and string out), and the input must not be used after. {@code
   * bulkBytes}: the value is one run of bytes ({@code ValueCodec.isBulkBytes}), which decoding
   * copies once wherever it lies, so a large one is better read in place.
   */
  default <T, E extends Exception> T readValue(
      int offset, int length, boolean bulkBytes, ValueReader<T, E> reader) throws E {
    return reader.read(input(offset, length));
  }

  /** Reads something from a protobuf input, such as a value with its codec. */
  @FunctionalInterface
  interface ValueReader<T, E extends Exception> {
    T read(CodedInputStream in) throws E;
  }

  /** Whether the bytes from {@code offset} are exactly {@code expected}. */
  boolean regionEquals(int offset, byte[] expected);

  /** A copy of {@code length} bytes from {@code offset}. */
  byte[] bytes(int offset, int length);

  /** Gives the memory back; the payload must not be used afterwards. */
  void release();
}
