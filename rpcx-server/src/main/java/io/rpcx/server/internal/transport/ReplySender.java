package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
import io.rpcx.core.internal.protocol.ThrownException;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.FrameWrite;
import io.rpcx.core.internal.transport.Frames;
import io.rpcx.core.internal.transport.QueuedWrite;
import io.rpcx.core.internal.transport.SchemaAnnouncements;
import io.rpcx.core.internal.transport.WriteQueue;
import io.rpcx.server.internal.dispatch.Replies;
import io.rpcx.server.internal.dispatch.ServerMethod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbound side of one server connection: encodes replies on the calling thread (a worker, or
 * the event loop) and queues them on a batching {@link WriteQueue}, preceded by the SCHEMA of
 * their result types the first time this connection carries them. Any thread may use it.
 */
final class ReplySender implements Replies {
  private static final Logger logger = LoggerFactory.getLogger(ReplySender.class);

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
  @Override
  public void sendValue(int requestId, ServerMethod method, Object value) throws CodecException {
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
          null);
      return;
    } catch (IOException | RuntimeException e) {
      throw e instanceof CodecException
          ? (CodecException) e
          : new CodecException(String.valueOf(e.getMessage()), e);
    }
    hints.reply(Frames.payloadSize(frame));
    enqueueReply(frame, model);
  }

  /** Where the messages and the end of server stream {@code streamId} go, batched. */
  @Override
  public StreamOutbound streamOutput(int streamId, ServerMethod method) {
    return new StreamOutbound(this, streamId, method);
  }

  /** The connection's allocator, for frames encoded elsewhere. */
  ByteBufAllocator alloc() {
    return channel.alloc();
  }

  /** The frame limit replies obey. */
  int maxFrameSize() {
    return maxFrameSize;
  }

  /**
   * Queues {@code frame}, a reply or stream message of a call of {@code method}, preceded by the
   * SCHEMA of its result types the first time this connection carries them.
   */
  void enqueueReply(ByteBuf frame, MethodModel method) {
    enqueueAnnounced(frame, method.resultSchemas());
  }

  /** Queues {@code frame}, preceded by the SCHEMA {@code schemas} (unless null) the first time. */
  private void enqueueAnnounced(ByteBuf frame, byte[] schemas) {
    writes.enqueue(schemas == null ? new FrameWrite(frame) : new AnnouncedWrite(frame, schemas));
  }

  /** Queues {@code write} behind the replies queued so far. */
  void enqueue(QueuedWrite write) {
    writes.enqueue(write);
  }

  /**
   * On the event loop: writes {@code frames} of a call of {@code method}, preceded by the SCHEMA of
   * its result types the first time this connection carries them.
   */
  void writeAnnounced(Channel channel, MethodModel method, ByteBuf frames) {
    announcements.write(channel, method.resultSchemas(), frames);
  }

  /** Encodes and queues a {@code STREAM_END}: OK when {@code code} is null. */
  void sendStreamEnd(int streamId, StatusCode code, String message, ThrownException thrown) {
    ErrorFrame end =
        encodeError(
            FrameType.STREAM_END, message, thrown,
            sent -> out -> StreamFrames.writeEnd(out, streamId, code, message, sent));
    enqueueAnnounced(end.frame, end.schemas);
  }

  /** Encodes and queues a {@code STREAM_CREDIT}: the client may send {@code messages} more. */
  @Override
  public void sendStreamCredit(int streamId, int messages) {
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
  @Override
  public void sendError(int requestId, StatusCode code, String message, ThrownException thrown) {
    ErrorFrame reply =
        encodeError(
            FrameType.REPLY, message, thrown,
            sent -> out -> ReplyWriter.writeError(out, requestId, code, message, sent));
    enqueueAnnounced(reply.frame, reply.schemas);
  }

  /**
   * An error frame of {@code type} that {@code writer} writes with the exception it is given: with
   * all {@code thrown} carries if that can be encoded within the frame limit, else (logged) with
   * less: over the limit, without its stack trace, then without its fields; fields that cannot be
   * encoded, without them. At least its class and message always go, which a caller on a client
   * turns into a {@code RemoteFailureException} naming it.
   */
  private ErrorFrame encodeError(
      byte type,
      String message,
      ThrownException thrown,
      Function<ThrownException, Frames.PayloadWriter> writer) {
    while (thrown != null && (thrown.hasFields() || thrown.hasStackTrace())) {
      try {
        return new ErrorFrame(
            Frames.encode(channel.alloc(), type, 128 + message.length(), maxFrameSize,
                writer.apply(thrown)),
            thrown.schemas());
      } catch (FrameOverLimitException e) {
        // The fields make the exception itself on the client; the stack trace is only a help.
        boolean dropTrace = thrown.hasStackTrace();
        logger.warn(
            "The {} of {} to send to {} would pass the frame limit of {} bytes: sending the"
                + " exception without {}",
            dropTrace ? "stack trace" : "fields", thrown.className(), channel.remoteAddress(),
            maxFrameSize, dropTrace ? "it" : "them");
        thrown = dropTrace ? thrown.withoutStackTrace() : thrown.withoutFields();
      } catch (IOException | RuntimeException e) {
        boolean dropFields = thrown.hasFields(); // a stack trace always encodes
        logger.warn(
            "Cannot encode the {} of {} to send to {}: {}; sending the exception without {}",
            dropFields ? "fields" : "stack trace", thrown.className(), channel.remoteAddress(),
            e.getMessage(), dropFields ? "them" : "it");
        thrown = dropFields ? thrown.withoutFields() : thrown.withoutStackTrace();
      }
    }
    try {
      return new ErrorFrame(
          Frames.encode(channel.alloc(), type, 64 + message.length(), Integer.MAX_VALUE,
              writer.apply(thrown)),
          null);
    } catch (IOException e) { // plain fields: no I/O
      throw new UncheckedIOException(e);
    }
  }

  /** An encoded error frame and the SCHEMA to announce before it (or null). */
  private static final class ErrorFrame {
    final ByteBuf frame;
    final byte[] schemas;

    ErrorFrame(ByteBuf frame, byte[] schemas) {
      this.frame = frame;
      this.schemas = schemas;
    }
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

  /** A frame whose types need their SCHEMA sent first on this connection. */
  private final class AnnouncedWrite implements QueuedWrite {
    private final ByteBuf frame;
    private final byte[] schemas;

    AnnouncedWrite(ByteBuf frame, byte[] schemas) {
      this.frame = frame;
      this.schemas = schemas;
    }

    @Override
    public void writeTo(Channel channel) {
      announcements.write(channel, schemas, frame);
    }

    @Override
    public void abort(Throwable cause) {
      frame.release();
    }
  }
}
