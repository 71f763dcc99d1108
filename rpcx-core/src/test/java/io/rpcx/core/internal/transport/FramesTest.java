package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.rpcx.core.internal.protocol.FrameType;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A frame is the same bytes whether its payload was staged on the heap (expected small) or written
 * straight into the pooled buffer (expected large), and is refused past the frame limit either way.
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

  @Test
  void stagedAndDirectFramesAreTheSameBytes() throws Exception {
    for (int size : new int[] {0, 100, 70_000, 200_000}) {
      assertArrayEquals(
          frameBytes(16, size), frameBytes(Frames.HEAP_ENCODE_LIMIT + 1, size), "size " + size);
    }
  }

  @Test
  void aPayloadOverTheFrameLimitIsRefusedInBothWays() {
    for (int sizeHint : new int[] {16, Frames.HEAP_ENCODE_LIMIT + 1}) {
      assertThrows(
          IndexOutOfBoundsException.class,
          () -> Frames.encode(ALLOCATOR, FrameType.REQUEST, sizeHint, 4096, payload(5000)));
    }
  }

  @Test
  void aPayloadExactlyAtTheFrameLimitIsAccepted() throws Exception {
    int maxFrameSize = 4096;
    Frames.PayloadWriter exact =
        out -> {
          byte[] content = new byte[maxFrameSize - FrameType.TYPE_AND_FLAGS_SIZE];
          out.writeBytes(content, 0, content.length);
        };
    for (int sizeHint : new int[] {16, Frames.HEAP_ENCODE_LIMIT + 1}) {
      ByteBuf frame = Frames.encode(ALLOCATOR, FrameType.REQUEST, sizeHint, maxFrameSize, exact);
      assertEquals(maxFrameSize + FrameType.LENGTH_FIELD_SIZE, frame.readableBytes());
      frame.release();
    }
  }
}
