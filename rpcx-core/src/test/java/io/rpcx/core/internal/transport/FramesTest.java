package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.rpcx.core.internal.protocol.FrameType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A frame is the same bytes whether its payload was staged on the heap (expected small), outgrew
 * staging, or was written straight into the pooled buffer (expected large), and the frame limit is
 * the same to the byte either way.
 */
class FramesTest {
  private static final PooledByteBufAllocator ALLOCATOR = new PooledByteBufAllocator(true);

  private static Frames.PayloadWriter payload(int bytes) {
    return out -> {
      byte[] content = new byte[bytes];
      new Random(bytes).nextBytes(content);
      long mark = out.beginLengthDelimited(1);
      out.writeString("h\u00e9llo");
      out.writeBytes(content, 0, content.length);
      out.writeVarint64(-1);
      out.endLengthDelimited(mark);
    };
  }

  private static byte[] frameBytes(int sizeHint, int payloadBytes) throws Exception {
    ByteBuf frame =
        Frames.encode(ALLOCATOR, FrameType.REQUEST, sizeHint, 1 << 24, payload(payloadBytes));
    try {
      ByteBuffer header = ByteBuffer.wrap(ByteBufUtil.getBytes(frame, 0, FrameType.HEADER_SIZE));
      assertEquals(frame.readableBytes() - FrameType.LENGTH_FIELD_SIZE, header.getInt());
      assertEquals(FrameType.REQUEST, header.get());
      assertEquals(
          frame.readableBytes() - FrameType.HEADER_SIZE, Frames.payloadSize(frame));
      return ByteBufUtil.getBytes(frame);
    } finally {
      frame.release();
    }
  }

  /** Hints that take each way: staged, staged at the edge, oddly negative, and direct. */
  private static final int[] HINTS = {
    16, Frames.HEAP_ENCODE_LIMIT, -1, Frames.HEAP_ENCODE_LIMIT + 1
  };

  @Test
  void stagedOutgrownAndDirectFramesAreTheSameBytes() throws Exception {
    // 300,000 bytes outgrow staging (MAX_STAGED) and are written again, straight in
    for (int size : new int[] {0, 100, 70_000, 200_000, 300_000}) {
      byte[] direct = frameBytes(Frames.HEAP_ENCODE_LIMIT + 1, size);
      for (int hint : HINTS) {
        assertArrayEquals(direct, frameBytes(hint, size), "size " + size + ", hint " + hint);
      }
    }
  }

  /** A payload of {@code bytes} bytes ending in a one-byte varint, as a frame may end in a tag. */
  private static Frames.PayloadWriter endingInAVarint(int bytes) {
    return out -> {
      byte[] content = new byte[bytes - 1];
      out.writeBytes(content, 0, content.length);
      out.writeVarint32(5);
    };
  }

  @Test
  void theFrameLimitIsTheSameToTheByteEitherWay() throws Exception {
    int maxFrameSize = 4096;
    int maxPayload = maxFrameSize - FrameType.TYPE_AND_FLAGS_SIZE;
    for (int hint : HINTS) {
      ByteBuf frame =
          Frames.encode(
              ALLOCATOR, FrameType.REQUEST, hint, maxFrameSize, endingInAVarint(maxPayload));
      assertEquals(maxFrameSize + FrameType.LENGTH_FIELD_SIZE, frame.readableBytes());
      frame.release();
      FrameOverLimitException e =
          assertThrows(
              FrameOverLimitException.class,
              () ->
                  Frames.encode(
                      ALLOCATOR, FrameType.REQUEST, hint, maxFrameSize,
                      endingInAVarint(maxPayload + 1)),
              "hint " + hint);
      assertEquals("the frame is over the limit of 4096 bytes", e.getMessage());
    }
  }

  @Test
  void anIndexOutOfBoundsExceptionFromThePayloadIsNeitherAStagingOverflowNorTheFrameLimit() {
    for (int hint : HINTS) {
      AtomicInteger writes = new AtomicInteger();
      IndexOutOfBoundsException thrown = new IndexOutOfBoundsException("a bug in a codec");
      IndexOutOfBoundsException e =
          assertThrows(
              IndexOutOfBoundsException.class,
              () ->
                  Frames.encode(
                      ALLOCATOR, FrameType.REQUEST, hint, 1 << 20,
                      out -> {
                        writes.incrementAndGet();
                        throw thrown;
                      }),
              "hint " + hint);
      assertSame(thrown, e);
      assertEquals(1, writes.get(), "written once, never again straight into the frame");
    }
  }

  @Test
  void aStagedPayloadThatOutgrowsStagingIsWrittenAgainEvenBehindACatchAll() throws Exception {
    // A codec that wraps every RuntimeException of what it calls (as one wrapping a user's code
    // might) must not swallow the staging signal.
    int size = Frames.MAX_STAGED + 100;
    ByteBuf frame =
        Frames.encode(
            ALLOCATOR, FrameType.REQUEST, 0, 1 << 20,
            out -> {
              try {
                out.writeBytes(new byte[size], 0, size);
              } catch (IllegalStateException | IndexOutOfBoundsException e) {
                throw new IOException("wrapped", e);
              }
            });
    assertEquals(size, Frames.payloadSize(frame));
    frame.release();
  }

  @Test
  void aFrameLimitNearTheLargestIntDoesNotOverflow() throws Exception {
    ByteBuf frame =
        Frames.encode(ALLOCATOR, FrameType.REQUEST, 16, Integer.MAX_VALUE, payload(1000));
    assertEquals(Frames.payloadSize(frame) + FrameType.HEADER_SIZE, frame.readableBytes());
    frame.release();
  }
}
