package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.rpcx.core.internal.transport.GrpcFraming.Deframer;
import io.rpcx.core.internal.transport.GrpcFraming.MessageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * gRPC's length-prefixed messages read from DATA frames cut anywhere: whole messages come out in
 * order, whatever the cuts, each its own buffer that stays valid after the deframer moves on; a
 * length over the limit, an unknown flag, a compressed message without gzip and a gzip bomb are
 * refused before their bytes are kept. Messages that each arrive in one DATA frame cost no
 * allocation, and the received buffers go back as soon as their messages are out.
 */
class GrpcFramingTest {
  private final PooledByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
  private final List<ByteBuf> toRelease = new ArrayList<>();

  @AfterEach
  void release() {
    toRelease.forEach(ByteBuf::release);
  }

  private static byte[] framed(int flag, byte[]... messages) {
    ByteBuf out = Unpooled.buffer();
    for (byte[] message : messages) {
      out.writeByte(flag).writeInt(message.length).writeBytes(message);
    }
    return ByteBufUtil.getBytes(out);
  }

  private static byte[] random(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** Feeds {@code wire} cut into pieces of {@code cut} bytes; collects every message handed out. */
  private List<byte[]> read(Deframer deframer, byte[] wire, int cut) throws MessageException {
    List<ByteBuf> messages = new ArrayList<>();
    for (int at = 0; at < wire.length; at += cut) {
      ByteBuf data = Unpooled.wrappedBuffer(wire, at, Math.min(cut, wire.length - at));
      deframer.add(data);
      data.release(); // the deframer keeps its own reference
      for (ByteBuf message; (message = deframer.next()) != null; ) {
        messages.add(message);
      }
    }
    List<byte[]> bytes = new ArrayList<>();
    for (ByteBuf message : messages) { // read only now: each must have outlived later reads
      bytes.add(ByteBufUtil.getBytes(message));
      message.release();
    }
    return bytes;
  }

  @Test
  void messagesComeOutWholeAndInOrderWhereverTheFramesAreCut() throws MessageException {
    byte[][] messages = {random(7, 1), new byte[0], random(300, 2), random(70_000, 3), random(1, 4)};
    byte[] wire = framed(0, messages);
    for (int cut : new int[] {1, 2, 5, 6, 13, 299, 4096, 16_384, wire.length}) {
      Deframer deframer = new Deframer(allocator, 1 << 20, false);
      List<byte[]> read = read(deframer, wire, cut);
      assertEquals(messages.length, read.size(), "cut " + cut);
      for (int i = 0; i < messages.length; i++) {
        assertArrayEquals(messages[i], read.get(i), "message " + i + ", cut " + cut);
      }
      assertFalse(deframer.hasPartialMessage());
      assertEquals(0, deframer.bufferedBytes());
      deframer.release();
    }
  }

  @Test
  void messagesInsideOneFrameAreSlicesOfItAndAllocateNothing() throws MessageException {
    AtomicInteger allocations = new AtomicInteger();
    ByteBufAllocator counting =
        (ByteBufAllocator)
            Proxy.newProxyInstance(
                ByteBufAllocator.class.getClassLoader(),
                new Class<?>[] {ByteBufAllocator.class},
                (proxy, method, args) -> {
                  if (!method.getName().equals("isDirectBufferPooled")
                      && !method.getName().equals("calculateNewCapacity")) {
                    allocations.incrementAndGet();
                  }
                  return method.invoke(allocator, args);
                });
    byte[] first = random(16, 8);
    byte[] second = random(600, 9);
    Deframer deframer = new Deframer(counting, 1 << 20, false);
    byte[] wire = framed(0, first, second);
    ByteBuf data = Unpooled.wrappedBuffer(wire);
    deframer.add(data);
    ByteBuf one = deframer.next();
    ByteBuf two = deframer.next();
    assertNull(deframer.next());
    assertEquals(0, allocations.get(), "allocations for messages inside one DATA frame");
    assertEquals(3, data.refCnt(), "the frame, held by the caller and by each message");
    assertEquals(0, deframer.bufferedBytes());
    wire[5] ^= 1; // each message is a view of the received bytes, not a copy
    first[0] ^= 1;
    assertArrayEquals(first, ByteBufUtil.getBytes(one));
    assertArrayEquals(second, ByteBufUtil.getBytes(two));
    one.release();
    two.release();
    assertEquals(1, data.refCnt(), "the deframer kept nothing once the messages were out");
    data.release();

    ByteBuf head = Unpooled.wrappedBuffer(framed(0, second), 0, 100);
    ByteBuf tail = Unpooled.wrappedBuffer(framed(0, second), 100, 505);
    deframer.add(head);
    deframer.add(tail);
    ByteBuf spanning = deframer.next();
    assertArrayEquals(second, ByteBufUtil.getBytes(spanning));
    assertTrue(allocations.get() > 0, "a message across frames is gathered");
    spanning.release();
    head.release();
    tail.release();
    assertEquals(0, head.refCnt() + tail.refCnt(), "both frames given back");
    deframer.release();
  }

  @Test
  void aMessageCutShortIsPartialAndKeptUntilItsEnd() throws MessageException {
    byte[] wire = framed(0, random(100, 5));
    Deframer deframer = new Deframer(allocator, 1 << 20, false);
    ByteBuf head = Unpooled.wrappedBuffer(wire, 0, 50);
    deframer.add(head);
    head.release();
    assertNull(deframer.next());
    assertTrue(deframer.hasPartialMessage());
    assertEquals(45, deframer.bufferedBytes());
    deframer.release();
  }

  @Test
  void aLengthOverTheLimitIsRefusedBeforeItsBytesArrive() {
    Deframer deframer = new Deframer(allocator, 1000, false);
    ByteBuf prefix = Unpooled.buffer().writeByte(0).writeInt(1001);
    deframer.add(prefix);
    prefix.release();
    MessageException refused = assertThrows(MessageException.class, deframer::next);
    assertTrue(refused.isOverLimit());
    assertEquals("a message of 1001 bytes is over the limit of 1000 bytes", refused.getMessage());
    deframer.release();
  }

  @Test
  void aNegativeLengthReadsAsTheHugeUnsignedNumberItIs() {
    Deframer deframer = new Deframer(allocator, 1000, false);
    ByteBuf prefix = Unpooled.buffer().writeByte(0).writeInt(-1);
    deframer.add(prefix);
    prefix.release();
    MessageException refused = assertThrows(MessageException.class, deframer::next);
    assertTrue(refused.getMessage().startsWith("a message of 4294967295 bytes"));
    deframer.release();
  }

  @Test
  void anUnknownFlagOrACompressedMessageWithoutEncodingIsMalformed() {
    for (int flag : new int[] {1, 2, 255}) {
      Deframer deframer = new Deframer(allocator, 1000, false);
      ByteBuf wire = Unpooled.wrappedBuffer(framed(flag, random(3, 6)));
      deframer.add(wire);
      wire.release();
      MessageException refused = assertThrows(MessageException.class, deframer::next);
      assertFalse(refused.isOverLimit());
      deframer.release();
    }
  }

  @Test
  void gzipMessagesInflateWithinTheLimit() throws IOException {
    byte[] text = "hello ".repeat(100).getBytes();
    Deframer deframer = new Deframer(allocator, 1000, true);
    List<byte[]> read = read(deframer, framed(1, gzip(text)), 3);
    assertArrayEquals(text, read.get(0));
    deframer.release();

    Deframer bombed = new Deframer(allocator, 5000, true); // the bomb itself is ~1 KB
    ByteBuf bomb = Unpooled.wrappedBuffer(framed(1, gzip(new byte[1_000_000])));
    bombed.add(bomb);
    bomb.release();
    MessageException refused = assertThrows(MessageException.class, bombed::next);
    assertTrue(refused.isOverLimit());
    assertEquals("a gzip message inflates past the limit of 5000 bytes", refused.getMessage());
    bombed.release();
  }

  @Test
  void encodedMessagesCarryTheirLength() throws IOException {
    byte[] payload = random(20, 7);
    ByteBuf message =
        GrpcFraming.encode(allocator, 20, 1000, out -> out.writeBytes(payload, 0, payload.length));
    toRelease.add(message);
    assertEquals(0, message.getByte(0));
    assertEquals(20, message.getInt(1));
    assertEquals(20, GrpcFraming.messageSize(message));
    assertArrayEquals(payload, ByteBufUtil.getBytes(message, 5, 20));
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }
}
