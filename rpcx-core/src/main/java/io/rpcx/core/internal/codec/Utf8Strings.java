package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads protobuf {@code string} values, rejecting malformed UTF-8 as {@link
 * CodedInputStream#readStringRequireUtf8} does. From a byte array that method is normally the
 * JDK's vectorized {@code new String(bytes, UTF_8)} already; from direct memory protobuf-java
 * decodes char by char, so there the bytes are copied out and decoded by the JDK instead. Values
 * of up to 64 KiB are decoded from a heap copy ({@code NettyPayload.valueInput}); this serves the
 * larger ones and the strings of the envelope (service, method, metadata, error message).
 */
public final class Utf8Strings {
  /** The decoder protobuf-java uses for byte arrays, whose string reading is fast already. */
  private static final Class<?> ARRAY_DECODER = CodedInputStream.newInstance(new byte[1]).getClass();

  /**
   * Strings up to this many bytes are copied out eight bytes at a time: protobuf's {@code
   * readRawBytes} on direct memory makes a slice object per call, which costs more than the copy.
   */
  private static final int SHORT = 256;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private Utf8Strings() {}

  /** Reads a length-prefixed string; malformed UTF-8 is an error rather than replaced. */
  public static String read(CodedInputStream in) throws IOException {
    if (in.getClass() == ARRAY_DECODER) {
      return in.readStringRequireUtf8();
    }
    int size = in.readRawVarint32();
    if (size == 0) {
      return "";
    }
    // readRawBytes rejects a negative size or one beyond the input.
    byte[] bytes = size > 0 && size <= SHORT ? readShort(in, size) : in.readRawBytes(size);
    String value = new String(bytes, StandardCharsets.UTF_8);
    // The JDK replaces malformed input with U+FFFD; a string that really holds U+FFFD re-encodes
    // to the same bytes, a malformed one does not (the check protobuf makes for byte arrays).
    if (value.indexOf('\uFFFD') >= 0
        && !Arrays.equals(value.getBytes(StandardCharsets.UTF_8), bytes)) {
      throw new InvalidProtocolBufferException("Protocol message had invalid UTF-8.");
    }
    return value;
  }

  /** Copies {@code size} bytes; an input that ends first fails with a truncated message error. */
  private static byte[] readShort(CodedInputStream in, int size) throws IOException {
    byte[] bytes = new byte[size];
    int i = 0;
    for (int words = size & ~7; i < words; i += 8) {
      LONGS.set(bytes, i, in.readRawLittleEndian64());
    }
    for (; i < size; i++) {
      bytes[i] = in.readRawByte();
    }
    return bytes;
  }
}
