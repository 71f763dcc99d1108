package io.rpcx.client.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.ReplyWriter;
import io.rpcx.core.internal.protocol.StreamFrames;
import io.rpcx.core.internal.stream.ReadArrivals;
import io.rpcx.core.internal.stream.StreamMessage;
import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.stream.StreamSender;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.FrameWrite;
import io.rpcx.core.internal.transport.Frames;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.QueuedWrite;
import java.io.IOException;

/**
 * The stream frames of one client connection, both ways (docs/PROTOCOL.md, section 5; the server's
 * {@code ServerStreamFrames} mirrors it): a server stream's {@code STREAM_MESSAGE}s go to its
 * call's {@link StreamReceiver}, handed on once per read, and its {@code STREAM_END} ends the call;
 * the server's {@code STREAM_CREDIT} goes to the {@link StreamSender} of a call's stream argument.
 * Outbound, it encodes the credit, the stream argument's messages and end, and {@code
 * STREAM_CANCEL}, queued behind the request. A frame for a call that is not a stream of that
 * direction means the two sides disagree on the method: that call fails and the server is told to
 * stop; the connection and its other calls go on. Inbound frames on the event loop only.
 */
final class ClientStreamFrames {
  private final ClientConnection connection;
  /** The streams that received messages in the current read; event loop only. */
  private final ReadArrivals arrivals = new ReadArrivals();
  /** A flush of expired calls' cancels is queued on the event loop; event loop only. */
  private boolean flushQueued;

  ClientStreamFrames(ClientConnection connection) {
    this.connection = connection;
  }

  // Inbound, on the event loop.

  /** One message of a server stream. */
  void onMessage(ByteBuf payloadBuffer) {
    NettyPayload payload = new NettyPayload(payloadBuffer, connection.meter());
    ReplyEnvelope envelope;
    try {
      envelope = ReplyEnvelope.parse(payload);
    } catch (ProtocolException e) {
      payload.release();
      connection.closeWith(malformed("STREAM_MESSAGE", e));
      return;
    }
    OutboundCall outbound = connection.pending().get(envelope.requestId());
    if (outbound == null) {
      payload.release(); // the stream ended or was cancelled while this was on its way
      return;
    }
    StreamReceiver receiver = outbound.call.receiver();
    if (receiver == null) {
      payload.release();
      mismatch(outbound, "STREAM_MESSAGE", "which is not a stream");
      return;
    }
    if (receiver.message(new StreamMessage(envelope, payload))) {
      arrivals.add(receiver);
    }
  }

  /** The server may take more of a call's stream argument. */
  void onCredit(ByteBuf payloadBuffer) {
    StreamFrames credit;
    try {
      credit = StreamFrames.parseCredit(new NettyPayload(payloadBuffer));
    } catch (ProtocolException e) {
      connection.closeWith(malformed("STREAM_CREDIT", e));
      return;
    } finally {
      payloadBuffer.release();
    }
    OutboundCall outbound = connection.pending().get(credit.streamId());
    if (outbound == null) {
      return; // the call ended while this was on its way
    }
    StreamSender sender = outbound.call.sender();
    if (sender == null) {
      mismatch(outbound, "STREAM_CREDIT", "which takes no stream argument");
      return;
    }
    sender.credit(credit.messages());
  }

  /** The end of a server stream. */
  void onEnd(ByteBuf payloadBuffer) {
    StreamFrames end;
    try {
      end = StreamFrames.parseEnd(new NettyPayload(payloadBuffer));
    } catch (ProtocolException e) {
      connection.closeWith(malformed("STREAM_END", e));
      return;
    } finally {
      payloadBuffer.release();
    }
    PendingCalls pending = connection.pending();
    OutboundCall outbound = pending.get(end.streamId());
    if (outbound == null) {
      return; // cancelled while this was on its way
    }
    pending.answered(end.streamId()); // the server ended the call: the connection stays
    if (outbound.call.receiver() == null) {
      outbound.call.fail(notAStream(outbound, "STREAM_END", "which is not a stream"));
    } else {
      outbound.call.streamEnded(
          end.errorCode(), end.message(), end.exceptionClass(), end.exceptionValue(),
          end.stackTrace());
    }
    connection.closeIfDrained();
  }

  /** The read is complete (or cut short): the streams that received messages hand them on. */
  void readComplete() {
    arrivals.readComplete();
  }

  private InternalErrorException malformed(String frame, ProtocolException e) {
    return new InternalErrorException(
        "malformed " + frame + " from " + connection.address() + ": " + e.getMessage(), e);
  }

  /**
   * The server sent {@code frame} for a call that is not a stream of that direction: the two sides
   * disagree on the method (its interface changed on one of them). That call fails and the server
   * is told to stop; the connection and its other calls go on.
   */
  private void mismatch(OutboundCall outbound, String frame, String what) {
    int id = outbound.call.requestId();
    connection.pending().answered(id);
    connection.channel().writeAndFlush(cancelFrame(id, ""));
    outbound.call.fail(notAStream(outbound, frame, what));
    connection.closeIfDrained();
  }

  private InternalErrorException notAStream(OutboundCall outbound, String frame, String what) {
    return new InternalErrorException(
        "the server at " + connection.address() + " sent " + frame + " for "
            + outbound.call.model().displayName() + ", " + what,
        null);
  }

  // Outbound, from any thread.

  /**
   * Forgets {@code call} and sends {@code STREAM_CANCEL} saying {@code message} if the server has
   * it: through the write queue, behind the stream messages already queued for the call.
   */
  void cancel(PendingCall call, String message) {
    connection.writes().enqueue(
        new QueuedWrite() {
          @Override
          public void writeTo(Channel channel) {
            if (connection.pending().abandoned(call, call.requestId()) && connection.isOpen()) {
              channel.write(cancelFrame(call.requestId(), message));
            }
            connection.closeIfDrained();
          }

          @Override
          public void abort(Throwable cause) {}
        });
  }

  /**
   * {@code STREAM_CANCEL} of call {@code id}, on the event loop; the call was forgotten. Calls that
   * time out together (their timers fire in one pass of the event loop) share one flush.
   */
  void cancelExpired(int id) {
    Channel channel = connection.channel();
    channel.write(cancelFrame(id, "its timeout passed on the client"), channel.voidPromise());
    if (!flushQueued) {
      flushQueued = true;
      channel.eventLoop().execute(
          () -> {
            flushQueued = false;
            channel.flush();
          });
    }
  }

  /** Queues {@code STREAM_CREDIT}: behind the request, so the server has the stream first. */
  void credit(PendingCall call, int messages) {
    connection.writes().enqueue(
        new FrameWrite(
            connection.control(
                FrameType.STREAM_CREDIT,
                out -> StreamFrames.writeCredit(out, call.requestId(), messages))));
  }

  /**
   * Encodes one element of {@code call}'s stream argument on the calling thread and queues it;
   * false, queueing nothing, if it is over the frame limit.
   */
  boolean message(PendingCall call, Object element, int maxFrameSize) throws IOException {
    ValueCodec<Object> codec = call.model().streamElementCodec();
    int id = call.requestId();
    ByteBuf frame;
    try {
      frame =
          Frames.encode(
              connection.channel().alloc(), FrameType.STREAM_MESSAGE,
              call.sizeHints().replyValue() + 8, maxFrameSize,
              out ->
                  call.sizeHints().replyValue(
                      ReplyWriter.writeValue(
                          out, id, codec, element, call.sizeHints().replyValue())));
    } catch (FrameOverLimitException e) {
      return false;
    }
    connection.writes().enqueue(new FrameWrite(frame));
    return true;
  }

  /** Queues the {@code STREAM_END} of {@code call}'s stream argument. */
  void end(PendingCall call) {
    int id = call.requestId();
    connection.writes().enqueue(
        new FrameWrite(
            connection.control(
                FrameType.STREAM_END, out -> StreamFrames.writeEnd(out, id, null, "", null))));
  }

  private ByteBuf cancelFrame(int id, String message) {
    return connection.control(
        FrameType.STREAM_CANCEL, out -> StreamFrames.writeCancel(out, id, message));
  }
}
