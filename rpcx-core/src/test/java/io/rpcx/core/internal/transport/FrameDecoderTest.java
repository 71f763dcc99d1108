package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.rpcx.core.internal.protocol.FrameType;
import org.junit.jupiter.api.Test;

/** The frame decoder splits any fragmentation of the stream into whole frames, within limits. */
class FrameDecoderTest {

  private static ByteBuf frame(byte type, byte[] payload) {
    ByteBuf frame = Unpooled.buffer();
    frame.writeInt(payload.length + 2).writeByte(type).writeByte(0).writeBytes(payload);
    return frame;
  }

  @Test
  void framesArriveWholeWhateverTheFragmentation() {
    ByteBuf stream = Unpooled.buffer();
    for (int i = 0; i < 50; i++) {
      byte[] payload = new byte[i * 7];
      java.util.Arrays.fill(payload, (byte) i);
      stream.writeBytes(frame(FrameType.REQUEST, payload));
    }
    for (int pieceSize : new int[] {1, 2, 3, 5, 7, 1000}) {
      EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1 << 20));
      ByteBuf copy = stream.copy();
      while (copy.isReadable()) {
        channel.writeInbound(copy.readRetainedSlice(Math.min(pieceSize, copy.readableBytes())));
      }
      copy.release();
      for (int i = 0; i < 50; i++) {
        ByteBuf received = channel.readInbound();
        assertEquals(FrameType.REQUEST, received.readByte());
        assertEquals(0, received.readByte());
        assertEquals(i * 7, received.readableBytes());
        for (int b = 0; b < i * 7; b++) {
          assertEquals((byte) i, received.readByte());
        }
        received.release();
      }
      assertNull(channel.readInbound());
      channel.finishAndReleaseAll();
    }
    stream.release();
  }

  @Test
  void aLargeFrameIsGatheredFromItsPiecesAndSmallFramesFollowNormally() throws Exception {
    byte[] large = new byte[200_000];
    new java.util.Random(3).nextBytes(large);
    ByteBuf stream = Unpooled.buffer();
    stream.writeBytes(frame(FrameType.REQUEST, new byte[] {1}));
    stream.writeBytes(frame(FrameType.REQUEST, large));
    stream.writeBytes(frame(FrameType.REPLY, new byte[] {2, 3}));
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1 << 20));
    while (stream.isReadable()) {
      channel.writeInbound(stream.readRetainedSlice(Math.min(1000, stream.readableBytes())));
    }
    stream.release();
    ByteBuf first = channel.readInbound();
    assertEquals(3, first.readableBytes());
    first.release();
    ByteBuf big = channel.readInbound();
    big.skipBytes(2);
    NettyPayload payload = new NettyPayload(big);
    assertEquals(large.length, payload.length());
    org.junit.jupiter.api.Assertions.assertArrayEquals(
        large, payload.input(0, large.length).readRawBytes(large.length), "read across the pieces");
    org.junit.jupiter.api.Assertions.assertArrayEquals(
        java.util.Arrays.copyOfRange(large, 150_000, 150_100), payload.bytes(150_000, 100));
    payload.release();
    ByteBuf last = channel.readInbound();
    assertEquals(FrameType.REPLY, last.readByte());
    last.release();
    assertNull(channel.readInbound());
    channel.finishAndReleaseAll();
  }

  @Test
  void aFrameOverTheLimitIsRefusedFromItsHeaderAlone() {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024));
    ByteBuf header = Unpooled.buffer().writeInt(0x80000000).writeByte(1).writeByte(0);
    FrameTooLargeException e =
        assertThrows(FrameTooLargeException.class, () -> channel.writeInbound(header));
    assertEquals(2147483648L, e.declaredLength());
    assertEquals(1024, e.limit());
    assertEquals("frame of 2147483648 bytes exceeds the limit of 1024 bytes", e.getMessage());
    // Whatever follows is discarded rather than parsed: the stream can no longer be trusted.
    channel.writeInbound(frame(FrameType.REQUEST, new byte[10]));
    assertNull(channel.readInbound());
    channel.finishAndReleaseAll();
  }

  @Test
  void aFrameTooShortForItsTypeIsCorrupt() {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024));
    ByteBuf header = Unpooled.buffer().writeInt(1).writeByte(1);
    CorruptedFrameException e =
        assertThrows(CorruptedFrameException.class, () -> channel.writeInbound(header));
    assertEquals("frame length 1 is shorter than its type and flags", e.getMessage());
    channel.finishAndReleaseAll();
  }
}
