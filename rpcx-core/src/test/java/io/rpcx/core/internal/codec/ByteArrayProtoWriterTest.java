package io.rpcx.core.internal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A string is written as its UTF-8 length and the bytes of {@code String.getBytes(UTF_8)}, whatever
 * it holds (ASCII, 2-, 3- and 4-byte characters, unpaired surrogates as {@code '?'}), whatever its
 * length around the writer's thresholds, from any position, into an array that must grow or not,
 * and up to the writer's limit exactly.
 */
class ByteArrayProtoWriterTest {

  /** Strings whose non-ASCII part starts at the first char, in the middle and at the last. */
  private static final List<String> UNITS =
      List.of("a", "\u00e9", "\u00ff", "\u0100", "\u07ff", "\u0800", "\u4e2d", "\uffff",
          "\ud83d\ude42", "\ud83d", "\ude42", "\ude42\ud83d", "\ud83d\ud83d\ude42");

  @Test
  void everyCharAloneIsWrittenAsGetBytesWritesIt() {
    for (int c = 0; c <= 0xFFFF; c++) {
      String value = "ab" + (char) c + "cd";
      assertWrittenAsGetBytes(value, "char " + Integer.toHexString(c));
    }
  }

  @Test
  void everyPairOfSurrogatesAndTheirNeighboursIsWrittenAsGetBytesWritesIt() {
    char[] chars = {'x', '\u00e9', '\u4e2d', '\ud800', '\udbff', '\udc00', '\udfff'};
    for (char a : chars) {
      for (char b : chars) {
        for (char c : chars) {
          String value = new String(new char[] {a, b, c});
          assertWrittenAsGetBytes(value, value.codePoints().boxed().toList().toString());
          assertWrittenAsGetBytes(value.substring(0, 2), "two of " + value);
          assertWrittenAsGetBytes(value.substring(0, 1), "one of " + value);
        }
      }
    }
  }

  @Test
  void stringsOfEveryLengthAroundTheThresholdsAreWrittenAsGetBytesWritesThem() {
    // 16/17 chars: encoded in place or by getBytes; 42/43 chars: 3 bytes each fit a one-byte
    // length or not; 63/64/65 two-byte chars end around 128 bytes, where the length needs two;
    // 4096/4097 chars: by getBytes or in chunks of 4096 chars, ending at or after a chunk.
    int[] lengths = {
      0, 1, 2, 7, 8, 15, 16, 17, 42, 43, 63, 64, 65, 127, 128, 129, 256, 5000, 4095, 4096, 4097,
      8191, 8192, 8193, 20_000
    };
    for (int length : lengths) {
      for (String unit : UNITS) {
        for (String text : variants(length, unit)) {
          assertWrittenAsGetBytes(text, length + " chars of " + unit.codePoints().boxed().toList());
        }
      }
    }
  }

  @Test
  void aLongStringIsWrittenAsGetBytesWritesItWhereverAChunkEndsInIt() {
    // Long strings are encoded 4096 chars at a time: a pair of surrogates, an unpaired one or a
    // multi-byte char just before, across or just after the end of a chunk, or of the string.
    char[] chars = {'x', '\u00e9', '\u4e2d', '\ud800', '\udbff', '\udc00', '\udfff'};
    for (int end : new int[] {4096, 8192, 8191}) {
      for (int at = end - 2; at <= end; at++) {
        for (char a : chars) {
          for (char b : chars) {
            String around = new String(new char[] {a, b});
            String inside = "y".repeat(at) + around + "z".repeat(9000 - at);
            String last = "y".repeat(at) + around;
            assertWrittenAsGetBytes(inside, around + " at " + at + " of 9002 chars");
            assertWrittenAsGetBytes(last, around + " ending " + last.length() + " chars");
          }
        }
      }
    }
  }

  @Test
  void randomLongTextFullOfSurrogatesIsWrittenAsGetBytesWritesIt() {
    // Pairs and unpaired surrogates wherever chunks end, and each pair cut off by the end of a
    // chunk moves the next chunk's end too.
    SplittableRandom random = new SplittableRandom(4096);
    char[] kinds = {'x', '\u00e9', '\u4e2d', '\ud83d', '\ude42'};
    for (int n = 0; n < 60; n++) {
      char[] chars = new char[random.nextInt(4097, 20_000)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] = kinds[random.nextInt(kinds.length)];
      }
      assertWrittenAsGetBytes(new String(chars), "random long string " + n);
    }
  }

  @Test
  void theChunkedEncoderWritesAnyStringAsGetBytesWritesIt() {
    // The writers hand it long strings only; it works for any.
    for (String value : new String[] {"", "a", "\u00e9", "\ud83d", "\ud83d\ude42", "ab\ude42"}) {
      ByteArrayProtoWriter out = new ByteArrayProtoWriter();
      new Utf8Chunks(value).writeTo(out);
      assertArrayEquals(prefixed(value.getBytes(StandardCharsets.UTF_8)), out.toByteArray(), value);
    }
  }

  @Test
  void randomTextIsWrittenAsGetBytesWritesIt() {
    SplittableRandom random = new SplittableRandom(32);
    for (int n = 0; n < 20_000; n++) {
      char[] chars = new char[random.nextInt(300)];
      for (int i = 0; i < chars.length; i++) {
        int kind = random.nextInt(6);
        chars[i] =
            (char)
                (kind < 3
                    ? random.nextInt(0x80)
                    : kind == 3
                        ? random.nextInt(0x800)
                        : kind == 4 ? random.nextInt(0xD800, 0xE000) : random.nextInt(0x10000));
      }
      assertWrittenAsGetBytes(new String(chars), "random string " + n);
    }
  }

  @Test
  void aStringThatFillsTheLimitExactlyIsWrittenAndOneByteMoreIsRefused() {
    for (String unit : UNITS) {
      for (int chars : new int[] {1, 2, 15, 16, 17, 40, 100, 400, 4100, 9000}) {
        String value = unit.repeat(Math.max(1, chars / unit.length()));
        byte[] expected = prefixed(value.getBytes(StandardCharsets.UTF_8));
        ByteArrayProtoWriter exact = new ByteArrayProtoWriter(new byte[1], expected.length);
        exact.writeString(value);
        assertArrayEquals(expected, exact.toByteArray(), value);

        ByteArrayProtoWriter tooSmall = new ByteArrayProtoWriter(new byte[1], expected.length - 1);
        assertThrows(WriteLimitException.class, () -> tooSmall.writeString(value), value);
      }
    }
  }

  @Test
  void anArrayLongerThanTheLimitIsWrittenOnlyUpToTheLimit() {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter(new byte[1024], 10);
    out.writeString("123456789"); // 1 + 9 bytes
    assertEquals(10, out.position());
    assertThrows(WriteLimitException.class, () -> out.writeByte(0));
    assertThrows(
        WriteLimitException.class, () -> new ByteArrayProtoWriter(new byte[1024], 4).writeString("\u4e2d\u4e2d"));
  }

  /** {@code length} chars of {@code unit} repeated, with it first, in the middle and last in ASCII. */
  private static List<String> variants(int length, String unit) {
    List<String> variants = new ArrayList<>();
    variants.add(unit.repeat(length / unit.length() + 1).substring(0, length));
    if (length >= unit.length()) {
      String ascii = "x".repeat(length - unit.length());
      variants.add(unit + ascii);
      variants.add(ascii.substring(0, ascii.length() / 2) + unit + ascii.substring(ascii.length() / 2));
      variants.add(ascii + unit);
    }
    return variants;
  }

  /** Written from several positions into arrays that must grow or not, the bytes are the JDK's. */
  private static void assertWrittenAsGetBytes(String value, String what) {
    byte[] expected = prefixed(value.getBytes(StandardCharsets.UTF_8));
    for (int before : new int[] {0, 3}) {
      for (int capacity : new int[] {1, before + expected.length, 4 * expected.length + 16}) {
        ByteArrayProtoWriter out = new ByteArrayProtoWriter(new byte[capacity]);
        for (int i = 0; i < before; i++) {
          out.writeByte(0x55);
        }
        out.writeString(value);
        byte[] written = out.toByteArray();
        byte[] after = java.util.Arrays.copyOfRange(written, before, written.length);
        assertArrayEquals(expected, after, what + " from " + before + " into " + capacity);
      }
    }
  }

  private static byte[] prefixed(byte[] content) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int length = content.length;
    while ((length & ~0x7F) != 0) {
      bytes.write((length & 0x7F) | 0x80);
      length >>>= 7;
    }
    bytes.write(length);
    bytes.writeBytes(content);
    return bytes.toByteArray();
  }
}
