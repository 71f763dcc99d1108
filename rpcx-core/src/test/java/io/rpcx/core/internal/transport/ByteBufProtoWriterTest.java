package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.WriteLimitException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Writing into a frame's pooled buffer gives exactly the bytes of the reference writer, whatever
 * the buffer and however the reserved length bytes compare with the real lengths (the content
 * moves forward, backward, or not at all, across buffer growth), for short and long strings,
 * well-formed or not.
 */
class ByteBufProtoWriterTest {

  /** Writes nested values of the given sizes, reserving length bytes for the given guesses. */
  private static void write(ProtoWriter out, int[] sizes, int[] guesses, Random random) {
    long outer = out.beginLengthDelimited(guesses[0]);
    for (int i = 0; i < sizes.length; i++) {
      out.writeTag(1, 2);
      long inner = out.beginLengthDelimited(guesses[i % guesses.length]);
      byte[] content = new byte[sizes[i]];
      random.nextBytes(content);
      out.writeBytes(content, 0, content.length);
      out.writeString("\u00e9t\u00e9 " + i);
      out.writeString(text(Math.min(sizes[i], 9_000))); // one chunk, two chunks, three chunks
      out.writeVarint64(-i);
      out.writeFixed32(i);
      out.endLengthDelimited(inner);
    }
    out.endLengthDelimited(outer);
  }

  /** Latin-1, two- and three-byte UTF-8 and a surrogate pair, cut to {@code length} chars. */
  private static String text(int length) {
    String unit = "abc \u00e9\u4e2d\ud83d\ude42 ";
    String text = unit.repeat(length / unit.length() + 1).substring(0, length);
    return Character.isHighSurrogate(text.isEmpty() ? 'x' : text.charAt(length - 1))
        ? text.substring(0, length - 1)
        : text;
  }

  @Test
  void unpairedSurrogatesBecomeQuestionMarksInShortAndLongStringsAsGetBytesWritesThem() {
    for (int length : new int[] {10, 4095, 4096, 4097, 8192, 10_000}) {
      for (String broken : new String[] {"\ud800\u00e9", "\ud800\u4e2d", "\ud800\ud83d\ude42", "\udc00x"}) {
        String value = "a".repeat(length) + broken + "a".repeat(length % 7);
        // A chunk boundary right after the high surrogate of a pair, or of an unpaired one.
        String atBoundary = "a".repeat(4095) + broken + "b".repeat(length);
        for (String text : new String[] {value, atBoundary}) {
          byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
          ByteArrayProtoWriter expected = new ByteArrayProtoWriter();
          expected.writeVarint32(utf8.length);
          expected.writeBytes(utf8, 0, utf8.length);
          ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(16);
          try {
            new ByteBufProtoWriter(buffer).writeString(text);
            assertArrayEquals(expected.toByteArray(), ByteBufUtil.getBytes(buffer), broken);
          } finally {
            buffer.release();
          }
        }
      }
    }
  }

  @Test
  void aLongStringThatFillsTheBufferLimitIsWrittenAndOneByteMoreIsRefused() {
    for (String unit : new String[] {"a", "\u00e9", "\u4e2d", "\ud83d\ude42"}) {
      String value = unit.repeat(9000 / unit.length());
      byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
      ByteArrayProtoWriter expected = new ByteArrayProtoWriter();
      expected.writeVarint32(utf8.length);
      expected.writeBytes(utf8, 0, utf8.length);
      int size = expected.position();
      ByteBuf exact = PooledByteBufAllocator.DEFAULT.directBuffer(16, size);
      ByteBuf tooSmall = PooledByteBufAllocator.DEFAULT.directBuffer(16, size - 1);
      try {
        new ByteBufProtoWriter(exact).writeString(value);
        assertArrayEquals(expected.toByteArray(), ByteBufUtil.getBytes(exact), unit);
        assertThrows(
            WriteLimitException.class, () -> new ByteBufProtoWriter(tooSmall).writeString(value));
      } finally {
        exact.release();
        tooSmall.release();
      }
    }
  }

  @Test
  void writesTheSameBytesAsTheReferenceWriterInEveryBuffer() {
    int[] sizes = {0, 5, 127, 128, 16_383, 16_384, 70_000, 1, 2_100_000};
    List<int[]> guessSets = List.of(new int[] {0}, new int[] {3_000_000}, new int[] {200, 5, 90_000});
    List<ByteBufAllocator> allocators =
        List.of(ByteBufAllocator.DEFAULT, PooledByteBufAllocator.DEFAULT, new UnpooledByteBufAllocator(false));
    for (int[] guesses : guessSets) {
      ByteArrayProtoWriter reference = new ByteArrayProtoWriter();
      write(reference, sizes, guesses, new Random(1));
      for (ByteBufAllocator allocator : allocators) {
        ByteBuf buffer = allocator.directBuffer(16);
        try {
          buffer.writeInt(0xCAFEBABE); // content before the writer's start stays untouched
          write(new ByteBufProtoWriter(buffer), sizes, guesses, new Random(1));
          byte[] written = ByteBufUtil.getBytes(buffer, 4, buffer.readableBytes() - 4);
          assertArrayEquals(reference.toByteArray(), written, allocator + " with guesses " + guesses[0]);
          assertArrayEquals(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE},
              ByteBufUtil.getBytes(buffer, 0, 4));
        } finally {
          buffer.release();
        }
      }
    }
  }
}
