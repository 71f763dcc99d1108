package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.CodedInputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import java.io.IOException;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A received payload is read in place where protobuf-java can: from one direct buffer or from the
 * parts of a composite, protobuf decodes without first copying the payload to the heap. Only a
 * small argument or result value is copied, because protobuf-java decodes a byte array faster than
 * direct memory. A protobuf-java that cannot decode direct memory in place (4.34 and later) gets one
 * heap copy of the payload instead, which is what it would make itself.
 */
class NettyPayloadTest {
  /** The decoder protobuf-java makes for a byte array. */
  private static final String ARRAY_DECODER =
      CodedInputStream.newInstance(new byte[1]).getClass().getSimpleName();

  private static final String PROTOBUF = System.getProperty("rpcx.protobuf.version");
  private static final String PINNED = System.getProperty("rpcx.protobuf.pinned.version");

  private static byte[] message(byte[] content) {
    byte[] message = new byte[content.length + 4];
    message[0] = 0x0a; // field 1, length-delimited
    int length = content.length;
    message[1] = (byte) (length & 0x7f | 0x80);
    message[2] = (byte) (length >>> 7 & 0x7f | 0x80);
    message[3] = (byte) (length >>> 14);
    System.arraycopy(content, 0, message, 4, content.length);
    return message;
  }

  private static byte[] readField(CodedInputStream in) throws IOException {
    assertEquals(0x0a, in.readTag());
    return in.readByteArray();
  }

  @Test
  void thePinnedProtobufJavaDecodesDirectMemoryInPlace() {
    assumeTrue(Objects.equals(PROTOBUF, PINNED), "runs on the pinned protobuf-java only");
    // protobuf-java 4.34 and later dropped these decoders and copy every direct buffer to the heap
    // first: one more full copy of every large argument. Raising the pin above 4.33 makes that
    // choice here, on purpose. See docs/VALUES.md, "Large values".
    assertTrue(DirectDecoding.SINGLE_IN_PLACE, "protobuf-java " + PROTOBUF + ", one buffer");
    assertTrue(DirectDecoding.COMPOSITE_IN_PLACE, "protobuf-java " + PROTOBUF + ", a composite");
  }

  @Test
  void theProbeFindsWhatEachRuntimeDoes() {
    // 3.25 up to 4.33 decode direct memory in place; 4.34 and later copy it first.
    String[] parts = PROTOBUF.split("[.]");
    boolean inPlace =
        Integer.parseInt(parts[0]) < 4
            || (Integer.parseInt(parts[0]) == 4 && Integer.parseInt(parts[1]) < 34);
    assertEquals(inPlace, DirectDecoding.SINGLE_IN_PLACE, "protobuf-java " + PROTOBUF);
    assertEquals(inPlace, DirectDecoding.COMPOSITE_IN_PLACE, "protobuf-java " + PROTOBUF);
  }

  @Test
  void readsOneDirectBufferInPlaceWhereProtobufCan() throws IOException {
    byte[] content = new byte[100_000];
    new Random(1).nextBytes(content);
    ByteBuf buffer = Transports.ALLOCATOR.directBuffer().writeBytes(message(content));
    NettyPayload payload = new NettyPayload(buffer);
    try {
      CodedInputStream in = payload.input(0, payload.length());
      assertEquals(
          DirectDecoding.SINGLE_IN_PLACE ? "UnsafeDirectNioDecoder" : ARRAY_DECODER,
          in.getClass().getSimpleName());
      assertArrayEquals(content, readField(in));
    } finally {
      payload.release();
    }
  }

  @Test
  void readsTheSlicesOfACompositeInPlaceWhereProtobufCan() throws IOException {
    byte[] content = new byte[100_000];
    new Random(2).nextBytes(content);
    byte[] message = message(content);
    CompositeByteBuf composite = Transports.ALLOCATOR.compositeDirectBuffer();
    int[] cuts = {0, 3, 7, 40_000, 99_999, message.length};
    for (int i = 1; i < cuts.length; i++) {
      ByteBuf part = Transports.ALLOCATOR.directBuffer(cuts[i] - cuts[i - 1]);
      part.writeBytes(message, cuts[i - 1], cuts[i] - cuts[i - 1]);
      composite.addComponent(true, part);
    }
    NettyPayload payload = new NettyPayload(composite);
    try {
      CodedInputStream in = payload.input(0, payload.length());
      assertEquals(
          DirectDecoding.COMPOSITE_IN_PLACE ? "IterableDirectByteBufferDecoder" : ARRAY_DECODER,
          in.getClass().getSimpleName());
      assertArrayEquals(content, readField(in));
    } finally {
      payload.release();
    }
  }

  @Test
  void aSmallValueIsDecodedFromAHeapCopyAndALargeOneInPlace() throws IOException {
    byte[] small = new byte[1000];
    byte[] large = new byte[NettyPayload.HEAP_COPY_LIMIT + 1];
    new Random(3).nextBytes(small);
    new Random(4).nextBytes(large);
    for (byte[] content : new byte[][] {small, large}) {
      byte[] message = message(content);
      ByteBuf buffer = Transports.ALLOCATOR.directBuffer().writeBytes(new byte[] {1, 2, 3});
      buffer.writeBytes(message);
      NettyPayload payload = new NettyPayload(buffer);
      try {
        CodedInputStream in = payload.valueInput(3, message.length);
        assertEquals(
            content == small || !DirectDecoding.SINGLE_IN_PLACE
                ? ARRAY_DECODER
                : "UnsafeDirectNioDecoder",
            in.getClass().getSimpleName());
        assertArrayEquals(content, readField(in));
      } finally {
        payload.release();
      }
    }
  }
}
