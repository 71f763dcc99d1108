package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.WriteLimitException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * gRPC's Length-Prefixed-Message, both ways: a compressed flag byte, the message's length as four
 * big-endian bytes, the message. {@link #encode} builds one in a pooled buffer as {@link Frames}
 * builds an RPCX frame (staged on the heap when small); a {@link Deframer} takes the DATA of one
 * HTTP/2 stream as it arrives and hands out whole messages, checking each length against the limit
 * before it keeps anything, and inflating {@code gzip} ones within it.
 */
public final class GrpcFraming {
  /** The flag byte and the length. */
  public static final int PREFIX_SIZE = 5;

  private GrpcFraming() {}

  /**
   * A message {@code payload} writes, with its prefix, of at most {@code maxMessageSize} bytes
   * ({@link FrameOverLimitException} past that, with nothing kept).
   */
  public static ByteBuf encode(
      ByteBufAllocator allocator, int sizeHint, int maxMessageSize, Frames.PayloadWriter payload)
      throws IOException {
    // Frames.stage bounds a payload as an RPCX frame's, 2 bytes of type and flags under the limit.
    int frameLimit = (int) Math.min(Integer.MAX_VALUE, maxMessageSize + 2L);
    ByteArrayProtoWriter staged = Frames.stage(sizeHint, frameLimit, payload);
    if (staged != null) {
      try {
        ByteBuf message = allocator.directBuffer(PREFIX_SIZE + staged.position());
        message.writeByte(0);
        message.writeInt(staged.position());
        message.writeBytes(staged.array(), 0, staged.position());
        return message;
      } finally {
        Frames.recycle(staged);
      }
    }
    int max = (int) Math.min(Integer.MAX_VALUE, (long) PREFIX_SIZE + maxMessageSize);
    ByteBuf message =
        allocator.directBuffer(Math.min(max, PREFIX_SIZE + Frames.unstagedHint(sizeHint)), max);
    message.writeByte(0);
    message.writeInt(0);
    try {
      payload.writeTo(new ByteBufProtoWriter(message));
    } catch (WriteLimitException e) {
      message.release();
      throw new FrameOverLimitException(maxMessageSize);
    } catch (Throwable e) {
      message.release();
      throw e;
    }
    message.setInt(message.readerIndex() + 1, message.readableBytes() - PREFIX_SIZE);
    return message;
  }

  /** The size of {@code message}'s message, without its prefix. */
  public static int messageSize(ByteBuf message) {
    return message.readableBytes() - PREFIX_SIZE;
  }

  /** Why a stream's DATA could not be read as messages: its status is the answer's. */
  public static final class MessageException extends IOException {
    private static final long serialVersionUID = 1L;

    private final boolean overLimit;

    MessageException(String message, boolean overLimit) {
      super(message);
      this.overLimit = overLimit;
    }

    /** Whether a message was over the limit (RESOURCE_EXHAUSTED), not malformed (INTERNAL). */
    public boolean isOverLimit() {
      return overLimit;
    }
  }

  /**
   * The messages of one HTTP/2 stream's DATA frames, in order; event loop only. A message is handed
   * out once whole, as a buffer the caller then owns; until then its bytes are kept, and counted in
   * {@link #bufferedBytes()}. Received bytes are kept as the received buffer while one holds them
   * all (a unary call's request, in one DATA frame, costs no allocation), and gathered in a
   * composite buffer only when a message spans frames.
   */
  public static final class Deframer {
    private final ByteBufAllocator allocator;
    private final int maxMessageSize;
    private final boolean gzip;
    /** The bytes received and not yet handed out: null, a received buffer, or {@link #gathered}. */
    private ByteBuf pending;
    /** {@link #pending} when it gathers several received buffers, else null. */
    private CompositeByteBuf gathered;
    /** The length of the message being read, or -1 before its prefix is whole. */
    private int length = -1;
    private boolean compressed;
    private int lastWireSize;

    /**
     * A deframer of messages of at most {@code maxMessageSize} bytes (after inflating); {@code
     * gzip} when the stream's {@code grpc-encoding} is {@code gzip}.
     */
    public Deframer(ByteBufAllocator allocator, int maxMessageSize, boolean gzip) {
      this.allocator = allocator;
      this.maxMessageSize = maxMessageSize;
      this.gzip = gzip;
    }

    /** Takes a retained slice of {@code data}, which the caller still owns. */
    public void add(ByteBuf data) {
      if (!data.isReadable()) {
        return;
      }
      if (pending == null) {
        pending = data.retainedSlice();
        return;
      }
      if (gathered == null) {
        gathered = allocator.compositeDirectBuffer(Integer.MAX_VALUE);
        gathered.addComponent(true, pending);
        pending = gathered;
      }
      gathered.addComponent(true, data.retainedSlice());
    }

    /**
     * The next whole message, or null until one is; the caller owns it.
     *
     * @throws MessageException if a message is over the limit, compressed without {@code gzip}, or
     *     does not inflate
     */
    public ByteBuf next() throws MessageException {
      if (pending == null) {
        return null;
      }
      if (length < 0) {
        if (pending.readableBytes() < PREFIX_SIZE) {
          return null;
        }
        int flag = pending.readUnsignedByte();
        length = pending.readInt();
        if (flag > 1) {
          throw new MessageException("a message has the unknown flag " + flag, false);
        }
        compressed = flag == 1;
        if (compressed && !gzip) {
          throw new MessageException(
              "a message is compressed, but the stream's grpc-encoding names no compression",
              false);
        }
        if (length < 0 || length > maxMessageSize) {
          throw new MessageException(
              "a message of " + Integer.toUnsignedString(length) + " bytes is over the limit of "
                  + maxMessageSize + " bytes",
              true);
        }
      }
      if (pending.readableBytes() < length) {
        return null;
      }
      ByteBuf message = take(length);
      lastWireSize = PREFIX_SIZE + length;
      length = -1;
      if (!pending.isReadable()) {
        release(); // the received buffers go back now, not when the stream ends
      } else if (gathered != null) {
        gathered.discardReadComponents();
      }
      return compressed ? inflate(message) : message;
    }

    /**
     * The next {@code size} bytes as a buffer of their own: a slice of the received buffer that
     * holds them all (the usual case, a message inside one DATA frame), else a copy. Never a slice
     * of {@link #gathered} itself, whose indexes move when read components are discarded.
     */
    private ByteBuf take(int size) {
      if (size == 0) {
        return Unpooled.EMPTY_BUFFER;
      }
      if (gathered == null) {
        ByteBuf message = pending.retainedSlice(pending.readerIndex(), size);
        pending.skipBytes(size);
        return message;
      }
      int offset = gathered.readerIndex();
      int component = gathered.toComponentIndex(offset);
      int start = gathered.toByteIndex(component);
      ByteBuf received = gathered.internalComponent(component);
      if (offset + size <= start + received.readableBytes()) {
        ByteBuf message = received.retainedSlice(received.readerIndex() + offset - start, size);
        gathered.skipBytes(size);
        return message;
      }
      ByteBuf message = allocator.buffer(size);
      gathered.readBytes(message, size);
      return message;
    }

    private ByteBuf inflate(ByteBuf compressedMessage) throws MessageException {
      ByteBuf inflated = allocator.heapBuffer();
      try (InputStream in = new GZIPInputStream(new ByteBufInputStream(compressedMessage, true))) {
        byte[] chunk = new byte[8192];
        int read;
        while ((read = in.read(chunk)) > 0) {
          if (inflated.readableBytes() + read > maxMessageSize) {
            throw new MessageException(
                "a gzip message inflates past the limit of " + maxMessageSize + " bytes", true);
          }
          inflated.writeBytes(chunk, 0, read);
        }
        return inflated;
      } catch (MessageException e) {
        inflated.release();
        throw e;
      } catch (IOException e) {
        inflated.release();
        throw new MessageException("a gzip message does not inflate: " + e.getMessage(), false);
      }
    }

    /** The bytes the last message {@link #next()} handed out took on the wire, prefix included. */
    public int lastWireSize() {
      return lastWireSize;
    }

    /** The bytes received and not yet handed out. */
    public int bufferedBytes() {
      return pending == null ? 0 : pending.readableBytes();
    }

    /** Whether a message was started and not finished: the stream ended in the middle of one. */
    public boolean hasPartialMessage() {
      return length >= 0 || bufferedBytes() > 0;
    }

    /** Lets go of what is buffered. */
    public void release() {
      if (pending != null) {
        pending.release();
        pending = null;
        gathered = null;
      }
    }
  }
}
