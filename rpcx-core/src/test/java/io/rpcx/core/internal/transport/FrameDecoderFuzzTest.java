package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.internal.testing.JazzerOutput;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;

/**
 * Arbitrary bytes, arriving in arbitrary pieces, either become whole frames or a framing error;
 * nothing else is thrown and every buffer is released. The regression inputs in
 * FrameDecoderFuzzTestInputs replay in every build; {@code JAZZER_FUZZ=1} fuzzes for longer
 * (docs/RELIABILITY.md).
 */
class FrameDecoderFuzzTest {
  @BeforeAll
  static void quietJazzer() {
    JazzerOutput.quiet(); // before its agent is installed, which notes every class it instruments
  }

  private static final int LIMIT = 4096;

  @FuzzTest(maxDuration = "10m")
  void framesOrAFramingErrorNothingElse(FuzzedDataProvider data) {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(LIMIT));
    List<ByteBuf> received = new ArrayList<>();
    List<ByteBuf> sent = new ArrayList<>();
    try {
      while (data.remainingBytes() > 0) {
        int piece = data.consumeInt(1, 64);
        ByteBuf chunk = Unpooled.wrappedBuffer(data.consumeBytes(piece));
        sent.add(chunk);
        try {
          channel.writeInbound(chunk.retain());
        } catch (DecoderException e) {
          assertTrue(
              e instanceof FrameTooLargeException
                  || e instanceof io.netty.handler.codec.CorruptedFrameException,
              "unexpected " + e);
        }
        ByteBuf frame;
        while ((frame = channel.readInbound()) != null) {
          received.add(frame);
          assertTrue(frame.readableBytes() >= FrameType.TYPE_AND_FLAGS_SIZE);
          assertTrue(frame.readableBytes() <= LIMIT);
        }
      }
    } finally {
      channel.finishAndReleaseAll();
      for (ByteBuf frame : received) {
        frame.release(); // frames are slices sharing the reference count of what they came from
      }
      for (ByteBuf chunk : sent) {
        assertEquals(1, chunk.refCnt(), "every reference the decoder took was given back");
        chunk.release();
      }
    }
  }
}
