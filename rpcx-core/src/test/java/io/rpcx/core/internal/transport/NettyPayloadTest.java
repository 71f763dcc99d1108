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
import io.netty.buffer.Unpooled;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A received payload is read in place where protobuf-java can: from one direct buffer or from the
 * parts of a composite, protobuf decodes without first copying the payload to the heap. A protobuf-
 * java that cannot decode direct memory in place (4.34 and later) gets one heap copy of the payload
 * instead, which is what it would make itself. An argument or result value of up to 4 MiB is
 * decoded from a heap copy, because protobuf-java decodes a byte array faster than direct memory;
 * the copy is made in a reused array, the thread's own or a shared one, which nothing decoded from
 * it ever shares. Bulk bytes ({@code byte[]}) over 64 KiB are read in place, where one copy builds
 * them.
 */
class NettyPayloadTest {
  /** The decoder protobuf-java makes for a byte array. */
  private static final String ARRAY_DECODER =
      CodedInputStream.newInstance(new byte[1]).getClass().getSimpleName();

  private static final String PROTOBUF = System.getProperty("rpcx.protobuf.version");
  private static final String PINNED = System.getProperty("rpcx.protobuf.pinned.version");

  private static byte[] message(byte[] content) {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    out.writeTag(1, 2); // field 1, length-delimited
    out.writeByteArray(content);
    return out.toByteArray();
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
  void aValueOfUpTo4MibIsDecodedFromAHeapCopyAndALargerOneOrLargeBulkBytesInPlace()
      throws IOException {
    int[] sizes = {
      1000,
      NettyPayload.HEAP_COPY_LIMIT - 4, // a message of 64 KiB: tag, 3 bytes of length, content
      NettyPayload.HEAP_COPY_LIMIT - 3,
      LargeScratchArrays.MAX_KEPT - 5, // a message of 4 MiB: tag, 4 bytes of length, content
      LargeScratchArrays.MAX_KEPT - 4
    };
    for (int size : sizes) {
      byte[] content = new byte[size];
      new Random(size).nextBytes(content);
      byte[] message = message(content);
      for (boolean bulkBytes : new boolean[] {false, true}) {
        boolean copied =
            message.length <= NettyPayload.HEAP_COPY_LIMIT
                || (!bulkBytes && message.length <= LargeScratchArrays.MAX_KEPT);
        NettyPayload payload = payloadOf(message);
        try {
          payload.readValue(
              3,
              message.length,
              bulkBytes,
              in -> {
                String decoder =
                    copied || !DirectDecoding.SINGLE_IN_PLACE
                        ? ARRAY_DECODER
                        : "UnsafeDirectNioDecoder";
                assertEquals(
                    decoder,
                    in.getClass().getSimpleName(),
                    message.length + " bytes, bulk bytes: " + bulkBytes);
                assertArrayEquals(content, readField(in));
                return null;
              });
        } finally {
          payload.release();
        }
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
    return decode(payload, length, type, StandardCodecs.registry().codecFor(type).isBulkBytes());
  }

  private static Object decode(NettyPayload payload, int length, Class<?> type, boolean bulkBytes)
      throws IOException {
    ValueCodec<?> codec = StandardCodecs.registry().codecFor(type);
    return payload.readValue(
        3, length, bulkBytes, in -> Values.read(codec, in, DecodeContext.withDefaults()));
  }

  @Test
  void valuesDecodedOneAfterAnotherFromTheReusedCopyNeverShareIt() throws IOException {
    // Each value is copied into the thread's reused array and decoded from it: a byte[], a String
    // and a protobuf message decoded first must be unchanged by the next value's copy.
    for (int size : new int[] {0, 1, 100, 16_000, 40_000, 100_000, 1_000_000}) {
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
              false,
              in -> {
                assertEquals(0x0a, in.readTag());
                byte[] nested =
                    inner.readValue(3, innerMessage.length, false, NettyPayloadTest::readField);
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
  void aLargeValueReadWhileAnotherIsBeingReadOnTheSameThreadGetsItsOwnCopy() throws IOException {
    String outerText = "outer \u00e9".repeat(20_000);
    String innerText = "inner \u4e2d".repeat(15_000);
    byte[] outerMessage = valueMessage(outerText);
    byte[] innerMessage = valueMessage(innerText);
    NettyPayload outer = payloadOf(outerMessage);
    NettyPayload inner = payloadOf(innerMessage);
    try {
      Object read =
          outer.readValue(
              3,
              outerMessage.length,
              false,
              in -> {
                assertEquals(innerText, decode(inner, innerMessage.length, String.class));
                ValueCodec<?> string = StandardCodecs.registry().codecFor(String.class);
                return Values.read(string, in, DecodeContext.withDefaults());
              });
      assertEquals(outerText, read);
    } finally {
      outer.release();
      inner.release();
    }
  }

  @Test
  void aLargeValueIsCopiedIntoASharedArrayGivenBackForTheNext() throws IOException {
    // No array kept but the one given back now: the next value's copy.
    LargeScratchArrays.forgetKept();
    byte[] shared = LargeScratchArrays.take(200_000);
    LargeScratchArrays.give(shared);
    String text = "x\u00e9".repeat(50_000);
    byte[] message = valueMessage(text);
    NettyPayload payload = payloadOf(message);
    try {
      assertEquals(text, decode(payload, message.length, String.class));
    } finally {
      payload.release();
    }
    assertArrayEquals(message, java.util.Arrays.copyOf(shared, message.length), "the copy");
    assertTrue(shared == LargeScratchArrays.take(message.length), "given back");
    LargeScratchArrays.give(shared);
  }

  @Test
  void aValueInAHeapFrameIsReadWhereItLiesAndNothingDecodedSharesTheFrame() throws IOException {
    for (int size : new int[] {1000, 100_000}) {
      byte[] bytes = new byte[size];
      new Random(size).nextBytes(bytes);
      for (Object value : List.of("h\u00e9ap ".repeat(size / 6), bytes)) {
        byte[] message = valueMessage(value);
        ByteBuf buffer = Unpooled.buffer().writeBytes(new byte[] {1, 2, 3}).writeBytes(message);
        NettyPayload payload = new NettyPayload(buffer);
        try {
          int lent = LargeScratchArrays.lent();
          ValueCodec<?> codec = StandardCodecs.registry().codecFor(value.getClass());
          Object decoded =
              payload.readValue(
                  3,
                  message.length,
                  codec.isBulkBytes(),
                  in -> {
                    assertEquals(lent, LargeScratchArrays.lent(), "no shared array lent");
                    return Values.read(codec, in, DecodeContext.withDefaults());
                  });
          buffer.setZero(0, buffer.capacity()); // the frame's bytes gone: the values stay
          if (value instanceof byte[]) {
            assertArrayEquals(bytes, (byte[]) decoded, size + " bytes");
          } else {
            assertEquals(value, decoded, size + " chars");
          }
        } finally {
          payload.release();
        }
      }
    }
  }

  @Test
  void aValueCutShortInTheReusedCopyIsATruncatedMessageError() {
    // The reused array is longer than the value: the decoder must stop at the value's end.
    ScratchArrays.give(new byte[ScratchArrays.MAX_KEPT]);
    LargeScratchArrays.give(LargeScratchArrays.take(LargeScratchArrays.MAX_KEPT));
    for (int size : new int[] {500, 300_000}) {
      byte[] message = message(new byte[size]);
      NettyPayload payload = payloadOf(message);
      try {
        InvalidProtocolBufferException e =
            assertThrows(
                InvalidProtocolBufferException.class,
                () -> payload.readValue(3, message.length - 1, false, NettyPayloadTest::readField));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
      } finally {
        payload.release();
      }
    }
  }

  @Test
  void largeValuesDecodedOnManyThreadsAtOnceAreEachTheirOwn() throws Exception {
    // More threads than the shared arrays kept: each value must come back as it was sent.
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 40; i++) {
                    byte[] content = new byte[70_000 + 997 * thread + i];
                    new Random(thread * 1000 + i).nextBytes(content);
                    String text = "t" + thread + "\u00e9\u4e2d".repeat(25_000 + i);
                    for (Object value : List.of(content, text)) {
                      byte[] message = valueMessage(value);
                      NettyPayload payload = payloadOf(message);
                      try {
                        // bulkBytes false: the byte[] goes through the shared arrays too.
                        Object decoded = decode(payload, message.length, value.getClass(), false);
                        if (value instanceof byte[]) {
                          assertArrayEquals((byte[]) value, (byte[]) decoded);
                        } else {
                          assertEquals(value, decoded);
                        }
                      } finally {
                        payload.release();
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
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
