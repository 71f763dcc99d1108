package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.CodedInputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A received payload is read in place: from one direct buffer or from the parts of a composite,
 * protobuf decodes without first copying the payload to the heap. Only a small argument or result
 * value is copied, because protobuf-java decodes a byte array faster than direct memory.
 */
class NettyPayloadTest {

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
  void readsOneDirectBufferInPlace() throws IOException {
    byte[] content = new byte[100_000];
    new Random(1).nextBytes(content);
    ByteBuf buffer = Transports.ALLOCATOR.directBuffer().writeBytes(message(content));
    NettyPayload payload = new NettyPayload(buffer);
    try {
      CodedInputStream in = payload.input(0, payload.length());
      // protobuf-java 4.34 and later dropped this decoder and copy every direct buffer to the heap
      // first: one more full copy of every large argument. See docs/VALUES.md, "Large values".
      assertEquals("UnsafeDirectNioDecoder", in.getClass().getSimpleName());
      assertArrayEquals(content, readField(in));
    } finally {
      payload.release();
    }
  }

  @Test
  void readsTheSlicesOfACompositeInPlace() throws IOException {
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
      assertEquals("IterableDirectByteBufferDecoder", in.getClass().getSimpleName());
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
            content == small ? "ArrayDecoder" : "UnsafeDirectNioDecoder",
            in.getClass().getSimpleName());
        assertArrayEquals(content, readField(in));
      } finally {
        payload.release();
      }
    }
  }
}
