package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.ReplyWriter;
import io.rpcx.core.internal.protocol.SizeHints;
import io.rpcx.core.internal.protocol.ThrownException;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.Frames;
import io.rpcx.core.internal.transport.QueuedWrite;
import io.rpcx.server.internal.dispatch.ServerMethod;
import io.rpcx.server.internal.dispatch.StreamOutput;
import java.io.IOException;

/**
 * One server stream's way out. Its messages (each encoded on the heap, as {@code Frames} stages a
 * payload) are appended to an open <em>batch</em>: a pooled buffer queued on the connection's
 * write queue when its first message goes in. Messages that come before the event loop writes it
 * join it, so a publisher emitting faster than the event loop writes sends many messages per
 * buffer and per write (instead of a buffer, a queued write and an outbound-buffer entry each),
 * while a message alone is queued as soon as it would have been on its own. A message expected or
 * found over 64 KiB (encoded straight into a buffer of its own) and the stream's end go as frames
 * of their own, after the batch, which then takes no more. A batch starts at eight times its first
 * frame and grows to {@value #BATCH_CAPACITY} bytes: one small message alone never holds a large
 * buffer.
 *
 * <p>Its stream calls it under the stream's own monitor, one thread at a time; the event loop
 * takes a batch under this object's.
 */
final class StreamOutbound implements StreamOutput {
  /** Bytes a batch buffer holds: about 680 frames of 16-byte strings, 15 of 1 KiB. */
  static final int BATCH_CAPACITY = 16 * 1024;

  private final ReplySender sender;
  private final int streamId;
  private final ServerMethod method;
  /** The batch queued and not yet written, which messages join, or null; under this monitor. */
  private Batch open;

  StreamOutbound(ReplySender sender, int streamId, ServerMethod method) {
    this.sender = sender;
    this.streamId = streamId;
    this.method = method;
  }

  @Override
  public boolean message(Object value) throws CodecException {
    MethodModel model = method.model();
    SizeHints hints = method.sizeHints();
    ByteArrayProtoWriter staged;
    Frames.PayloadWriter payload =
        out ->
            hints.replyValue(
                ReplyWriter.writeValue(
                    out, streamId, model.resultCodec(), value, hints.replyValue()));
    ByteBuf large = null;
    try {
      staged = Frames.stage(hints.reply(), sender.maxFrameSize(), payload);
      if (staged == null) { // expected or found over 64 KiB: straight into a frame of its own
        large =
            Frames.encodeDirect(
                sender.alloc(),
                FrameType.STREAM_MESSAGE,
                Frames.unstagedHint(hints.reply()),
                sender.maxFrameSize(),
                payload);
      }
    } catch (FrameOverLimitException e) {
      return false;
    } catch (IOException | RuntimeException e) {
      throw e instanceof CodecException
          ? (CodecException) e
          : new CodecException(String.valueOf(e.getMessage()), e);
    }
    if (large != null) { // queued after what is queued, which then takes no more
      hints.reply(Frames.payloadSize(large));
      closeBatch();
      sender.enqueueReply(large, model);
      return true;
    }
    hints.reply(staged.position());
    Batch batch;
    try {
      batch = addToBatch(staged, model);
    } finally {
      Frames.recycle(staged);
    }
    if (batch != null) {
      sender.enqueue(batch); // in order: only this stream's thread of the moment queues its frames
    }
    return true;
  }

  /**
   * Copies a staged message into the open batch, or into a new batch it returns to be queued (null
   * when the open one took it).
   */
  private synchronized Batch addToBatch(ByteArrayProtoWriter staged, MethodModel model) {
    int size = Frames.frameSize(staged.position());
    Batch batch = open;
    if (batch != null && batch.buffer.maxWritableBytes() >= size) {
      // Grown first, if at all: a growth that fails (direct memory is out) leaves no half frame.
      batch.buffer.ensureWritable(size);
      Frames.write(batch.buffer, FrameType.STREAM_MESSAGE, staged);
      return null;
    }
    // Sized for a few such messages, it grows up to the batch capacity as more come: a stream
    // that sends one small message at a time holds no 16 KiB buffer for it.
    ByteBuf buffer =
        sender
            .alloc()
            .directBuffer(
                (int) Math.max(size, Math.min(BATCH_CAPACITY, 8L * size)),
                Math.max(BATCH_CAPACITY, size));
    Frames.write(buffer, FrameType.STREAM_MESSAGE, staged);
    batch = new Batch(buffer, model);
    open = batch;
    return batch;
  }

  @Override
  public void end(StatusCode code, String message, ThrownException thrown) {
    closeBatch();
    sender.sendStreamEnd(streamId, code, message, thrown);
  }

  /** What is queued takes no more: the next frame goes after it. */
  private synchronized void closeBatch() {
    open = null;
  }

  /** Frames of this stream in one buffer, written together. */
  private final class Batch implements QueuedWrite {
    private final ByteBuf buffer;
    private final MethodModel model;

    Batch(ByteBuf buffer, MethodModel model) {
      this.buffer = buffer;
      this.model = model;
    }

    @Override
    public void writeTo(Channel channel) {
      synchronized (StreamOutbound.this) {
        if (open == this) {
          open = null; // complete from now on
        }
      }
      sender.writeAnnounced(channel, model, buffer);
    }

    @Override
    public void abort(Throwable cause) {
      synchronized (StreamOutbound.this) {
        if (open == this) {
          open = null;
        }
      }
      buffer.release();
    }
  }
}
