package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.ReplyWriter;
import io.rpcx.core.internal.protocol.SizeHints;
import io.rpcx.core.internal.protocol.StreamFrames;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.FrameWrite;
import io.rpcx.core.internal.transport.Frames;
import io.rpcx.core.internal.transport.QueuedWrite;
import io.rpcx.core.internal.transport.SchemaAnnouncements;
import io.rpcx.core.internal.transport.WriteQueue;
import io.rpcx.server.internal.dispatch.ServerMethod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The outbound side of one server connection: encodes replies on the calling thread (a worker, or
 * the event loop) and queues them on a batching {@link WriteQueue}, preceded by the SCHEMA of
 * their result types the first time this connection carries them. Any thread may use it.
 */
final class ReplySender {
  private final Channel channel;
  private final WriteQueue writes;
  private final int maxFrameSize;
  private final SchemaAnnouncements announcements = new SchemaAnnouncements();
  private final AtomicBoolean closeQueued = new AtomicBoolean();

  ReplySender(Channel channel, int maxFrameSize) {
    this.channel = channel;
    this.writes = new WriteQueue(channel, true);
    this.maxFrameSize = maxFrameSize;
  }

  /**
   * Encodes and queues the reply {@code value} to a call of {@code method}; a reply over the frame
   * limit is answered with RESOURCE_EXHAUSTED instead.
   *
   * @throws CodecException if the value cannot be encoded; nothing was queued
   */
  void sendValue(int requestId, ServerMethod method, Object value) throws CodecException {
    MethodModel model = method.model();
    SizeHints hints = method.sizeHints();
    ByteBuf frame;
    try {
      frame =
          Frames.encode(
              channel.alloc(), FrameType.REPLY, hints.reply(), maxFrameSize,
              out ->
                  hints.replyValue(
                      ReplyWriter.writeValue(
                          out, requestId, model.resultCodec(), value, hints.replyValue())));
    } catch (FrameOverLimitException e) {
      sendError(
          requestId,
          StatusCode.RESOURCE_EXHAUSTED,
          "the reply is over the frame limit of " + maxFrameSize + " bytes",
          "");
      return;
    } catch (IOException | RuntimeException e) {
      throw e instanceof CodecException
          ? (CodecException) e
          : new CodecException(String.valueOf(e.getMessage()), e);
    }
    hints.reply(Frames.payloadSize(frame));
    writes.enqueue(
        model.resultSchemas() == null ? new FrameWrite(frame) : new ReplyWrite(frame, model));
  }

  /**
   * Encodes and queues one element of a server stream of {@code method} as a {@code
   * STREAM_MESSAGE} (laid out as a reply with a value).
   *
   * @return false, queueing nothing, if it is over the frame limit
   * @throws CodecException if the value cannot be encoded; nothing was queued
   */
  boolean sendStreamMessage(int streamId, ServerMethod method, Object value)
      throws CodecException {
    MethodModel model = method.model();
    SizeHints hints = method.sizeHints();
    ByteBuf frame;
    try {
      frame =
          Frames.encode(
              channel.alloc(), FrameType.STREAM_MESSAGE, hints.reply(), maxFrameSize,
              out ->
                  hints.replyValue(
                      ReplyWriter.writeValue(
                          out, streamId, model.resultCodec(), value, hints.replyValue())));
    } catch (FrameOverLimitException e) {
      return false;
    } catch (IOException | RuntimeException e) {
      throw e instanceof CodecException
          ? (CodecException) e
          : new CodecException(String.valueOf(e.getMessage()), e);
    }
    hints.reply(Frames.payloadSize(frame));
    writes.enqueue(
        model.resultSchemas() == null ? new FrameWrite(frame) : new ReplyWrite(frame, model));
    return true;
  }

  /** Encodes and queues a {@code STREAM_END}: OK when {@code code} is null. */
  void sendStreamEnd(int streamId, StatusCode code, String message, String exceptionClass) {
    ByteBuf frame;
    try {
      frame =
          Frames.encode(
              channel.alloc(), FrameType.STREAM_END, 64 + message.length(), Integer.MAX_VALUE,
              out -> StreamFrames.writeEnd(out, streamId, code, message, exceptionClass));
    } catch (IOException e) { // plain fields: no I/O
      throw new UncheckedIOException(e);
    }
    writes.enqueue(new FrameWrite(frame));
  }

  /** Encodes and queues a {@code STREAM_CREDIT}: the client may send {@code messages} more. */
  void sendStreamCredit(int streamId, int messages) {
    ByteBuf frame;
    try {
      frame =
          Frames.encode(
              channel.alloc(), FrameType.STREAM_CREDIT, 16, Integer.MAX_VALUE,
              out -> StreamFrames.writeCredit(out, streamId, messages));
    } catch (IOException e) { // plain fields: no I/O
      throw new UncheckedIOException(e);
    }
    writes.enqueue(new FrameWrite(frame));
  }

  /** Encodes and queues an error reply. */
  void sendError(int requestId, StatusCode code, String message, String exceptionClass) {
    ByteBuf frame;
    try {
      frame =
          Frames.encode(
              channel.alloc(), FrameType.REPLY, 64 + message.length(), Integer.MAX_VALUE,
              out -> ReplyWriter.writeError(out, requestId, code, message, exceptionClass));
    } catch (IOException e) { // writeError does no I/O; an error reply is plain fields
      throw new UncheckedIOException(e);
    }
    writes.enqueue(new FrameWrite(frame));
  }

  /** Queues a control frame (a PONG, for example) behind the replies queued so far. */
  void sendControl(ByteBuf frame) {
    writes.enqueue(new FrameWrite(frame));
  }

  /** Closes the connection once every reply queued so far is written; the first call counts. */
  void closeOnceWritten() {
    if (!closeQueued.compareAndSet(false, true)) {
      return;
    }
    writes.enqueue(
        new QueuedWrite() {
          @Override
          public void writeTo(Channel channel) {
            // Completes after every write before it: then nothing is left to send.
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
          }

          @Override
          public void abort(Throwable cause) {}
        });
  }

  /** A reply whose result types need their SCHEMA sent first on this connection. */
  private final class ReplyWrite implements QueuedWrite {
    private final ByteBuf frame;
    private final MethodModel method;

    ReplyWrite(ByteBuf frame, MethodModel method) {
      this.frame = frame;
      this.method = method;
    }

    @Override
    public void writeTo(Channel channel) {
      announcements.write(channel, method.resultSchemas(), frame);
    }

    @Override
    public void abort(Throwable cause) {
      frame.release();
    }
  }
}
