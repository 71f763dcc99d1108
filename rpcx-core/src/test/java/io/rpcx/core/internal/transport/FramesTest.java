package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * the same to the byte either way. The heap array a payload is staged in is the thread's, reused
 * from frame to frame: never shared by two frames, never kept over its cap.
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

  @Test
  void framesEncodedOneAfterAnotherOnAThreadCarryTheirOwnBytes() throws Exception {
    // The staging array is reused from one frame to the next: a shorter payload after a longer
    // one, and a longer one after it, are each exactly their own bytes.
    for (int bytes : new int[] {20_000, 10, 30_000, 0, 60_000, 5}) {
      assertArrayEquals(frameBytes(Frames.HEAP_ENCODE_LIMIT + 1, bytes), frameBytes(bytes, bytes));
      assertArrayEquals(frameBytes(Frames.HEAP_ENCODE_LIMIT + 1, bytes), frameBytes(0, bytes));
    }
  }

  @Test
  void aFrameEncodedWhileAnotherIsBeingEncodedOnTheSameThreadGetsItsOwnArray() throws Exception {
    // A getter the codec calls may itself make a call, whose request is encoded on this thread
    // in the middle of the outer encoding.
    byte[] innerExpected = frameBytes(Frames.HEAP_ENCODE_LIMIT + 1, 3_000);
    byte[] outerExpected = frameBytes(Frames.HEAP_ENCODE_LIMIT + 1, 5_000);
    Frames.PayloadWriter outer = payload(5_000);
    AtomicInteger nested = new AtomicInteger();
    ByteBuf frame =
        Frames.encode(
            ALLOCATOR,
            FrameType.REQUEST,
            16,
            1 << 24,
            out -> {
              out.writeByte(0x7f); // the outer payload has begun
              ByteBuf inner =
                  Frames.encode(ALLOCATOR, FrameType.REQUEST, 16, 1 << 24, payload(3_000));
              try {
                assertArrayEquals(innerExpected, ByteBufUtil.getBytes(inner));
                nested.incrementAndGet();
              } finally {
                inner.release();
              }
              outer.writeTo(out);
            });
    try {
      assertEquals(1, nested.get());
      byte[] bytes = ByteBufUtil.getBytes(frame);
      // The outer frame: its header, the byte written before the nested encoding, the payload.
      assertEquals(0x7f, bytes[FrameType.HEADER_SIZE]);
      assertArrayEquals(
          java.util.Arrays.copyOfRange(outerExpected, FrameType.HEADER_SIZE, outerExpected.length),
          java.util.Arrays.copyOfRange(bytes, FrameType.HEADER_SIZE + 1, bytes.length));
    } finally {
      frame.release();
    }
  }

  @Test
  void aPayloadThatOutgrowsTheReusedArrayIsEncodedWholeAndTheArrayKeptWithinTheCap()
      throws Exception {
    frameBytes(16, 100); // the thread keeps a small array
    for (int bytes : new int[] {50_000, 200_000, 300_000, 100}) {
      assertArrayEquals(frameBytes(Frames.HEAP_ENCODE_LIMIT + 1, bytes), frameBytes(16, bytes));
      byte[] kept = ScratchArrays.take(1);
      assertTrue(kept.length <= ScratchArrays.MAX_KEPT, bytes + " bytes kept " + kept.length);
      ScratchArrays.give(kept);
    }
  }

  @Test
  void theFrameLimitHoldsWhenTheReusedArrayIsLongerThanIt() throws Exception {
    ScratchArrays.give(new byte[ScratchArrays.MAX_KEPT]);
    int limit = 2 + 600; // type and flags, then 600 bytes of payload
    ByteBuf fits =
        Frames.encode(ALLOCATOR, FrameType.REQUEST, 16, limit, out -> out.writeBytes(new byte[600], 0, 600));
    assertEquals(600, Frames.payloadSize(fits));
    fits.release();
    ScratchArrays.give(new byte[ScratchArrays.MAX_KEPT]);
    assertThrows(
        FrameOverLimitException.class,
        () -> Frames.encode(ALLOCATOR, FrameType.REQUEST, 16, limit, out -> out.writeBytes(new byte[601], 0, 601)));
  }

  @Test
  void aPayloadThatFailsGivesTheStagingArrayBack() {
    byte[] array = ScratchArrays.take(4096); // the thread's own, or a new one: it has none now
    ScratchArrays.give(array);
    IOException failure = new IOException("codec failed");
    IOException thrown =
        assertThrows(
            IOException.class,
            () ->
                Frames.encode(
                    ALLOCATOR,
                    FrameType.REQUEST,
                    16,
                    1 << 24,
                    out -> {
                      out.writeByte(1);
                      throw failure;
                    }));
    assertSame(failure, thrown);
    byte[] next = ScratchArrays.take(16);
    assertTrue(array == next, "the staging array was given back");
    ScratchArrays.give(next);
  }
}
