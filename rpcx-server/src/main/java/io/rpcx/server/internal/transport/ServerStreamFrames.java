package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.StreamFrames;
import io.rpcx.core.internal.stream.ReadArrivals;
import io.rpcx.core.internal.stream.StreamMessage;
import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.stream.StreamSender;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.server.internal.dispatch.OpenStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream frames of one server connection (docs/PROTOCOL.md, section 5; the client's {@code
 * ClientStreamFrames} mirrors it): the streaming calls open on it by id, from dispatch to the end
 * of the call, and the client's frames for them: {@code STREAM_MESSAGE}s go to a call's {@link
 * StreamReceiver}, handed on once per read, {@code STREAM_CREDIT} to its {@link StreamSender},
 * {@code STREAM_END} and {@code STREAM_CANCEL} to the call ({@code STREAM_CANCEL} of a unary call
 * to the connection's unary calls). A frame for a stream that is not open
 * (it ended while the frame was on its way, or was refused) is dropped, as after any call's end.
 * Frames on the event loop; the registry from any thread.
 */
final class ServerStreamFrames {
  private static final Logger logger = LoggerFactory.getLogger(ServerStreamFrames.class);

  private final ServerConnectionHandler connection;
  /** The streaming calls open on this connection, by id. */
  private final Map<Integer, OpenStream> open = new ConcurrentHashMap<>();
  /** The streams that received messages in the current read; event loop only. */
  private final ReadArrivals arrivals = new ReadArrivals();

  ServerStreamFrames(ServerConnectionHandler connection) {
    this.connection = connection;
  }

  void opened(OpenStream stream) {
    open.put(stream.streamId(), stream);
  }

  void ended(OpenStream stream) {
    open.remove(stream.streamId(), stream);
  }

  boolean isOpen(int streamId) {
    return open.containsKey(streamId);
  }

  boolean isEmpty() {
    return open.isEmpty();
  }

  /** The connection closed: every open stream ends. */
  void connectionLost() {
    for (OpenStream stream : open.values()) {
      stream.connectionLost();
    }
  }

  /** The server's grace period is over: every open stream ends UNAVAILABLE, saying {@code reason}. */
  void shutDown(String reason) {
    for (OpenStream stream : open.values()) {
      stream.shutDown(reason);
    }
  }

  /** An element of a call's stream argument. */
  void onMessage(ByteBuf frame, InboundMeter meter) {
    NettyPayload payload = new NettyPayload(frame, meter); // held bytes count against the budget
    ReplyEnvelope envelope;
    try {
      envelope = ReplyEnvelope.parse(payload);
    } catch (ProtocolException e) {
      payload.release();
      connection.closeForProtocolError(
          StatusCode.BAD_REQUEST, "malformed STREAM_MESSAGE: " + e.getMessage());
      return;
    }
    OpenStream stream = open.get(envelope.requestId());
    StreamReceiver receiver = stream == null ? null : stream.receiver();
    if (receiver == null) {
      payload.release();
      dropped("STREAM_MESSAGE", envelope.requestId());
      return;
    }
    if (receiver.message(new StreamMessage(envelope, payload))) {
      arrivals.add(receiver);
    }
  }

  /** The client's STREAM_CREDIT or STREAM_CANCEL. */
  void onControl(byte type, ByteBuf frame) {
    StreamFrames control;
    try {
      NettyPayload payload = new NettyPayload(frame);
      control =
          type == FrameType.STREAM_CREDIT
              ? StreamFrames.parseCredit(payload)
              : StreamFrames.parseCancel(payload);
    } catch (ProtocolException e) {
      connection.closeForProtocolError(StatusCode.BAD_REQUEST, e.getMessage());
      return;
    } finally {
      frame.release();
    }
    OpenStream stream = open.get(control.streamId());
    if (stream == null) {
      if (type == FrameType.STREAM_CANCEL) {
        connection.cancelCall(control.streamId(), control.message()); // a unary call, if any
      }
      return;
    }
    if (type == FrameType.STREAM_CANCEL) {
      stream.cancelledByClient(control.message());
      return;
    }
    StreamSender sender = stream.sender();
    if (sender != null) {
      sender.credit(control.messages());
    }
  }

  /** The end of a call's stream argument. */
  void onEnd(ByteBuf frame) {
    StreamFrames end;
    try {
      end = StreamFrames.parseEnd(new NettyPayload(frame));
    } catch (ProtocolException e) {
      connection.closeForProtocolError(StatusCode.BAD_REQUEST, e.getMessage());
      return;
    } finally {
      frame.release();
    }
    OpenStream stream = open.get(end.streamId());
    if (stream == null || stream.receiver() == null) {
      dropped("STREAM_END", end.streamId());
      return;
    }
    stream.receiver().finish(null); // the held messages first, then onComplete
  }

  /** The read is complete (or cut short): the streams that received messages hand them on. */
  void readComplete() {
    arrivals.readComplete();
  }

  private void dropped(String frame, int streamId) {
    logger.debug(
        "Dropped a {} from {} for stream {}, which is not open",
        frame,
        connection.remoteAddress(),
        Integer.toUnsignedString(streamId));
  }
}
