package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.model.StandardCodecs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A received payload is read in place where protobuf-java can: from one direct buffer or from the
 * parts of a composite, protobuf decodes without first copying the payload to the heap. Only a
 * small argument or result value is copied, because protobuf-java decodes a byte array faster than
 * direct memory. A protobuf-java that cannot decode direct memory in place (4.34 and later) gets one
 * heap copy of the payload instead, which is what it would make itself. The heap copy of a value is
 * made in the thread's reused array, which nothing decoded from it ever shares.
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
        payload.readValue(
            3,
            message.length,
            in -> {
              assertEquals(
                  content == small || !DirectDecoding.SINGLE_IN_PLACE
                      ? ARRAY_DECODER
                      : "UnsafeDirectNioDecoder",
                  in.getClass().getSimpleName());
              assertArrayEquals(content, readField(in));
              return null;
            });
      } finally {
        payload.release();
      }
    }
  }
  /** A payload of {@code message} after three other bytes, in direct memory. */
  private static NettyPayload payloadOf(byte[] message) {
    ByteBuf buffer = Transports.ALLOCATOR.directBuffer().writeBytes(new byte[] {1, 2, 3});
    buffer.writeBytes(message);
    return new NettyPayload(buffer);
  }

  /** Decodes the value message of {@code length} bytes after the first three with its codec. */
  private static Object decode(NettyPayload payload, int length, Class<?> type) throws IOException {
    ValueCodec<?> codec = StandardCodecs.registry().codecFor(type);
    return payload.readValue(3, length, in -> Values.read(codec, in, DecodeContext.withDefaults()));
  }

  @Test
  void valuesDecodedOneAfterAnotherFromTheReusedCopyNeverShareIt() throws IOException {
    // Each value is copied into the thread's reused array and decoded from it: a byte[], a String
    // and a protobuf message decoded first must be unchanged by the next value's copy.
    for (int size : new int[] {0, 1, 100, 16_000, 40_000}) {
      byte[] first = new byte[size];
      byte[] second = new byte[size];
      new Random(size).nextBytes(first);
      new Random(size + 1).nextBytes(second);
      String firstText = "a\u00e9\u4e2d\ud83d\ude42".repeat(size / 10 + 1);
      String secondText = "z\u00ff\u0800\ud83d\ude00".repeat(size / 10 + 1);
      BytesValue firstMessage = BytesValue.of(ByteString.copyFrom(first));
      BytesValue secondMessage = BytesValue.of(ByteString.copyFrom(second));
      List<Object> decoded = new ArrayList<>();
      for (Object value :
          List.of(first, second, firstText, secondText, firstMessage, secondMessage)) {
        byte[] message = valueMessage(value);
        NettyPayload payload = payloadOf(message);
        try {
          decoded.add(decode(payload, message.length, value.getClass()));
        } finally {
          payload.release();
        }
      }
      assertArrayEquals(first, (byte[]) decoded.get(0), size + " bytes");
      assertArrayEquals(second, (byte[]) decoded.get(1), size + " bytes");
      assertEquals(firstText, decoded.get(2));
      assertEquals(secondText, decoded.get(3));
      assertEquals(firstMessage, decoded.get(4));
      assertEquals(secondMessage, decoded.get(5));
    }
  }

  @Test
  void aValueReadWhileAnotherIsBeingReadOnTheSameThreadGetsItsOwnCopy() throws IOException {
    // A setter the codec calls may itself make a call, whose reply is decoded on this thread in
    // the middle of the outer decoding.
    byte[] outerContent = new byte[5000];
    byte[] innerContent = new byte[3000];
    new Random(5).nextBytes(outerContent);
    new Random(6).nextBytes(innerContent);
    byte[] outerMessage = message(outerContent);
    byte[] innerMessage = message(innerContent);
    NettyPayload outer = payloadOf(outerMessage);
    NettyPayload inner = payloadOf(innerMessage);
    try {
      byte[] read =
          outer.readValue(
              3,
              outerMessage.length,
              in -> {
                assertEquals(0x0a, in.readTag());
                byte[] nested =
                    inner.readValue(3, innerMessage.length, NettyPayloadTest::readField);
                assertArrayEquals(innerContent, nested);
                return in.readByteArray();
              });
      assertArrayEquals(outerContent, read);
    } finally {
      outer.release();
      inner.release();
    }
  }

  @Test
  void aValueOfExactly64KibIsCopiedAndOneByteMoreIsNot() throws IOException {
    for (int length : new int[] {NettyPayload.HEAP_COPY_LIMIT, NettyPayload.HEAP_COPY_LIMIT + 1}) {
      byte[] content = new byte[length - 4];
      new Random(length).nextBytes(content);
      byte[] message = message(content);
      NettyPayload payload = payloadOf(message);
      try {
        payload.readValue(
            3,
            message.length,
            in -> {
              assertEquals(
                  length <= NettyPayload.HEAP_COPY_LIMIT || !DirectDecoding.SINGLE_IN_PLACE
                      ? ARRAY_DECODER
                      : "UnsafeDirectNioDecoder",
                  in.getClass().getSimpleName(),
                  length + " bytes");
              assertArrayEquals(content, readField(in));
              return null;
            });
      } finally {
        payload.release();
      }
    }
  }

  @Test
  void aValueCutShortInTheReusedCopyIsATruncatedMessageError() {
    // The reused array is longer than the value: the decoder must stop at the value's end.
    ScratchArrays.give(new byte[ScratchArrays.MAX_KEPT]);
    byte[] message = message(new byte[500]);
    NettyPayload payload = payloadOf(message);
    try {
      InvalidProtocolBufferException e =
          assertThrows(
              InvalidProtocolBufferException.class,
              () -> payload.readValue(3, message.length - 1, NettyPayloadTest::readField));
      assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    } finally {
      payload.release();
    }
  }

  /** {@code value} as the value message RPCX sends, written by its codec. */
  private static byte[] valueMessage(Object value) throws IOException {
    @SuppressWarnings("unchecked")
    ValueCodec<Object> codec =
        (ValueCodec<Object>) StandardCodecs.registry().codecFor(value.getClass());
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    Values.write(out, codec, value);
    return out.toByteArray();
  }
}
