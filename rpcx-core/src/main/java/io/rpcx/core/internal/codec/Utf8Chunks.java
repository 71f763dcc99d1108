package io.rpcx.core.internal.codec;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Writes one long string as a protobuf {@code string}, {@value #CHUNK} chars at a time: each chunk
 * is copied out with {@code getChars}, encoded into a small array by the JDK's UTF-8 encoder, whose
 * loop over a char array is much faster than a {@code substring(...).getBytes(UTF_8)} per chunk,
 * and written after the others ({@code LongStringBenchmark}: docs/BENCHMARKS.md, "Long strings").
 * No array the size of the string is made. The bytes are exactly those of {@code
 * getBytes(UTF_8)}, an unpaired surrogate as {@code '?'}: a chunk never ends between the two chars
 * of a pair.
 *
 * <p>The length goes first, so its bytes are reserved before the string is encoded, for as many
 * bytes as the first chunk's bytes per char predict: a string whose UTF-8 length needs more or
 * fewer bytes than that moves once when the length is written ({@link
 * ProtoWriter#endLengthDelimited}). One use, on one thread.
 */
public final class Utf8Chunks {
  /** Strings longer than this many chars are written in chunks; shorter ones by the writers. */
  public static final int LONGER_THAN = 4096;

  /** Chars encoded at a time. */
  private static final int CHUNK = 4096;

  private final String value;
  private final char[] chars;
  private final byte[] bytes;
  private final CharBuffer in;
  private final ByteBuffer encoded;
  private final CharsetEncoder encoder =
      StandardCharsets.UTF_8
          .newEncoder()
          .onMalformedInput(CodingErrorAction.REPLACE) // an unpaired surrogate: '?'
          .onUnmappableCharacter(CodingErrorAction.REPLACE);
  /** The first char not encoded yet. */
  private int from;

  Utf8Chunks(String value) {
    this.value = value;
    this.chars = new char[Math.min(CHUNK, value.length())];
    this.bytes = new byte[3 * chars.length]; // at most 3 bytes per char; 4 per pair of them
    this.in = CharBuffer.wrap(chars);
    this.encoded = ByteBuffer.wrap(bytes);
  }

  /** Writes the string's UTF-8 length, then its bytes. */
  void writeTo(ProtoWriter out) {
    int length = value.length();
    int first = encodeNext();
    long expected = from == 0 ? 0 : first + (long) first * (length - from) / from;
    long mark = out.beginLengthDelimited((int) Math.min(Integer.MAX_VALUE, expected));
    out.writeBytes(bytes, 0, first);
    while (from < length) {
      out.writeBytes(bytes, 0, encodeNext());
    }
    out.endLengthDelimited(mark);
  }

  /** Encodes the next chunk into {@link #bytes}; returns how many bytes it took. */
  private int encodeNext() {
    int length = value.length();
    int to = Math.min(from + chars.length, length);
    if (to < length && to - 1 > from && Character.isHighSurrogate(value.charAt(to - 1))) {
      to--; // the pair goes whole into the next chunk
    }
    value.getChars(from, to, chars, 0);
    in.clear().limit(to - from);
    encoded.clear();
    CoderResult result = encoder.reset().encode(in, encoded, true);
    if (!result.isUnderflow() || !encoder.flush(encoded).isUnderflow()) {
      throw new IllegalStateException("UTF-8 encoder stopped with " + result);
    }
    from = to;
    return encoded.position();
  }
}
