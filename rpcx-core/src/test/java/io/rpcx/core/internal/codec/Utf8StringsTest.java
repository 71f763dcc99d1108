package io.rpcx.core.internal.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Strings are decoded exactly as protobuf decodes them — from heap and direct buffers, short and
 * long — and malformed UTF-8 or a length beyond the input is an error, never a replaced or
 * truncated string.
 */
class Utf8StringsTest {

  @Test
  void stringsOfEverySizeAndScriptReadBackFromHeapAndDirectInput() throws IOException {
    for (int size : new int[] {0, 1, 7, 8, 9, 15, 16, 255, 256, 257, 300, 5000}) {
      for (String unit : List.of("a", "é", "中", "🙂")) {
        String value = unit.repeat(size / unit.length() + 1).substring(0, size);
        if (Character.isHighSurrogate(value.isEmpty() ? 'x' : value.charAt(value.length() - 1))) {
          value = value.substring(0, value.length() - 1);
        }
        byte[] bytes = encoded(value);
        for (CodedInputStream in : inputs(bytes)) {
          assertEquals(value, Utf8Strings.read(in), "size " + size + " of " + unit);
        }
      }
    }
  }

  @Test
  void aStringThatReallyHoldsTheReplacementCharacterIsKept() throws IOException {
    byte[] bytes = encoded("before \uFFFD after");
    for (CodedInputStream in : inputs(bytes)) {
      assertEquals("before \uFFFD after", Utf8Strings.read(in));
    }
  }

  @Test
  void malformedUtf8IsRejectedRatherThanReplaced() {
    byte[] truncatedSequence = {(byte) 0xC3, 0x28};
    byte[] encodedSurrogate = {(byte) 0xED, (byte) 0xA0, (byte) 0x80};
    byte[] longWithBadEnd = new byte[400];
    java.util.Arrays.fill(longWithBadEnd, (byte) 'a');
    longWithBadEnd[399] = (byte) 0xFF;
    for (byte[] content : List.of(truncatedSequence, encodedSurrogate, longWithBadEnd)) {
      byte[] frame = lengthPrefixed(content);
      for (CodedInputStream in : inputs(frame)) {
        InvalidProtocolBufferException e =
            assertThrows(
                InvalidProtocolBufferException.class,
                () -> Utf8Strings.read(in));
        assertEquals("Protocol message had invalid UTF-8.", e.getMessage());
      }
    }
  }

  @Test
  void aNegativeLengthIsRejected() {
    byte[] negative = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 'a'};
    for (CodedInputStream in : inputs(negative)) {
      InvalidProtocolBufferException e =
          assertThrows(InvalidProtocolBufferException.class, () -> Utf8Strings.read(in));
      assertTrue(e.getMessage().contains("negative size"), e.getMessage());
    }
  }

  @Test
  void aLengthBeyondTheInputIsATruncatedMessageError() {
    byte[] shortClaim = {10, 'a', 'b', 'c'};
    byte[] longClaim = {(byte) 0xE8, 0x07, 'a', 'b'}; // 1000 bytes claimed
    byte[] mediumClaim = {(byte) 0xAC, 0x02, 'a', 'b'}; // 300 bytes claimed
    for (byte[] frame : List.of(shortClaim, longClaim, mediumClaim)) {
      for (CodedInputStream in : inputs(frame)) {
        InvalidProtocolBufferException e =
            assertThrows(
                InvalidProtocolBufferException.class,
                () -> Utf8Strings.read(in));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
      }
    }
  }

  private static byte[] encoded(String value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeStringNoTag(value);
    out.flush();
    return bytes.toByteArray();
  }

  private static byte[] lengthPrefixed(byte[] content) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      out.writeByteArrayNoTag(content);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The same bytes on the heap, in direct memory (the transport's case) and in two direct parts
   * cut at an odd offset (a large frame assembled from several reads).
   */
  private static List<CodedInputStream> inputs(byte[] bytes) {
    int cut = bytes.length / 2 | 1;
    cut = Math.min(cut, bytes.length);
    return List.of(
        CodedInputStream.newInstance(bytes),
        CodedInputStream.newInstance(direct(bytes, 0, bytes.length)),
        CodedInputStream.newInstance(
            List.of(direct(bytes, 0, cut), direct(bytes, cut, bytes.length - cut))));
  }

  private static ByteBuffer direct(byte[] bytes, int offset, int length) {
    ByteBuffer direct = ByteBuffer.allocateDirect(length);
    direct.put(bytes, offset, length).flip();
    return direct;
  }
}
