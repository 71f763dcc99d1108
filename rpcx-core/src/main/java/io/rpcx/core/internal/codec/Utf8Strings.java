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
 * Encodes short strings to UTF-8 in place, and reads protobuf {@code string} values, rejecting
 * malformed UTF-8 as {@link CodedInputStream#readStringRequireUtf8} does. From a byte array that
 * method is normally the JDK's vectorized {@code new String(bytes, UTF_8)} already; from direct
 * memory protobuf-java decodes char by char, so there the bytes are copied out and decoded by the
 * JDK instead. Values of up to 4 MiB are mostly decoded from a heap copy ({@code
 * NettyPayload.readValue}); this serves the others (larger ones, those arriving while the shared
 * copies are all lent, and where protobuf-java has no in-place decoder) and the strings of the
 * envelope (service, method, metadata, error message).
 *
 * <p>Encoding writes exactly the bytes of {@code String.getBytes(UTF_8)}, an unpaired surrogate as
 * {@code '?'}, straight into the writer's array: no temporary array per short string ({@link
 * Utf8Chunks} writes the long ones).
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

  /**
   * Strings of up to this many chars are encoded here, char by char; longer ones by the JDK's
   * {@code getBytes}, whose vectorized copy of Latin-1 text outruns a loop of one char per cycle
   * past about 16 chars even with its temporary array ({@code StringEncodingBenchmark}: 5 against 7
   * ns at 8 ASCII chars, 12 against 7 at 32). At most 48 bytes: the length takes one byte.
   */
  public static final int MAX_ENCODED_IN_PLACE = 16;

  /**
   * Writes the chars of {@code value} from its start into {@code target} at {@code at}, one byte
   * each, up to the first that is not ASCII; returns how many it wrote. {@code target} must have
   * room for {@code value.length()} bytes from {@code at}.
   */
  public static int encodeAscii(String value, byte[] target, int at) {
    int length = value.length();
    int i = 0;
    for (char c; i < length && (c = value.charAt(i)) < 0x80; i++) {
      target[at + i] = (byte) c;
    }
    return i;
  }

  /**
   * The bytes {@link #encode} writes for the chars of {@code value} from {@code from}: those of
   * {@code getBytes(UTF_8)}, where an unpaired surrogate takes one byte ({@code '?'}).
   */
  public static int encodedLength(String value, int from) {
    int length = value.length();
    int bytes = 0;
    for (int i = from; i < length; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (!Character.isSurrogate(c)) {
        bytes += 3;
      } else if (isPairAt(value, i)) {
        bytes += 4;
        i++;
      } else {
        bytes++;
      }
    }
    return bytes;
  }

  /**
   * Writes the chars of {@code value} from {@code from} as UTF-8 into {@code target} at {@code
   * at}, which must have room for {@link #encodedLength} bytes; returns the position after them.
   * The bytes are those of {@code getBytes(UTF_8)}: a surrogate pair is one 4-byte code point, an
   * unpaired surrogate is replaced with {@code '?'}.
   */
  public static int encode(String value, int from, byte[] target, int at) {
    int length = value.length();
    for (int i = from; i < length; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        target[at++] = (byte) c;
      } else if (c < 0x800) {
        target[at++] = (byte) (0xC0 | (c >>> 6));
        target[at++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        target[at++] = (byte) (0xE0 | (c >>> 12));
        target[at++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
        target[at++] = (byte) (0x80 | (c & 0x3F));
      } else if (isPairAt(value, i)) {
        int codePoint = Character.toCodePoint(c, value.charAt(++i));
        target[at++] = (byte) (0xF0 | (codePoint >>> 18));
        target[at++] = (byte) (0x80 | ((codePoint >>> 12) & 0x3F));
        target[at++] = (byte) (0x80 | ((codePoint >>> 6) & 0x3F));
        target[at++] = (byte) (0x80 | (codePoint & 0x3F));
      } else {
        target[at++] = '?';
      }
    }
    return at;
  }

  /** Whether the char at {@code i} is a high surrogate followed by a low one. */
  private static boolean isPairAt(String value, int i) {
    return Character.isHighSurrogate(value.charAt(i))
        && i + 1 < value.length()
        && Character.isLowSurrogate(value.charAt(i + 1));
  }

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
