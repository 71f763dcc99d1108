package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.GoAway;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.SchemaFrames;
import io.rpcx.core.internal.transport.ControlFrames;
import io.rpcx.core.internal.transport.FrameTooLargeException;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.TlsFailures;
import io.rpcx.server.internal.dispatch.CancellableCall;
import io.rpcx.server.internal.dispatch.OpenStream;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import io.rpcx.server.internal.dispatch.ServerConnection;
import io.rpcx.server.internal.dispatch.Replies;
import java.io.IOException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server end of one connection: takes frames from the {@code FrameDecoder}, hands requests to
 * the dispatcher, answers pings, and tells the client to go away when the server drains; replies
 * go out through its {@link ReplySender}, under the limit its {@link CallsInFlight} keeps. A peer
 * that breaks the protocol is told why (GOAWAY), logged once, and disconnected; other connections
 * are not affected.
 */
final class ServerConnectionHandler extends ChannelInboundHandlerAdapter
    implements ServerConnection, ServedConnection {
  private static final Logger logger = LoggerFactory.getLogger(ServerConnectionHandler.class);

  private final ServerTransport transport;
  private final RequestDispatcher dispatcher;
  private final int maxFrameSize;
  private final CallsInFlight callsInFlight;
  private InboundMeter meter;
  private Channel channel;
  private ReplySender replies;
  private String remoteAddress = "?";
  private volatile String drainReason;
  /** The client sent GOAWAY; the connection closes when no call is in flight. */
  private volatile boolean clientGoingAway;
  private volatile StatusCode drainCode = StatusCode.OK;
  /** Whether the GOAWAY to send is for this connection only (its age, idle): the server stays. */
  private volatile boolean drainConnectionOnly;
  /** Both prefaces were exchanged: frames may follow. Event loop only. */
  private boolean handshakeDone;
  /** GOAWAY was sent; a connection gets one. Event loop only. */
  private boolean goAwaySent;
  private boolean closing;
  private final PeerSchemas peerSchemas = new PeerSchemas();
  private final ServerStreamFrames streams = new ServerStreamFrames(this);
  private final UnaryCalls unaryCalls = new UnaryCalls();

  ServerConnectionHandler(
      ServerTransport transport,
      RequestDispatcher dispatcher,
      int maxFrameSize,
      int maxConcurrentCalls) {
    this.transport = transport;
    this.dispatcher = dispatcher;
    this.maxFrameSize = maxFrameSize;
    this.callsInFlight = new CallsInFlight(maxConcurrentCalls);
  }

  /** Where requests received and not yet decoded are counted; set before the channel starts. */
  void meter(InboundMeter meter) {
    this.meter = meter;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    replies = new ReplySender(channel, maxFrameSize);
    remoteAddress = String.valueOf(channel.remoteAddress());
    transport.connectionServed(channel, this);
    String shuttingDown = transport.goAwayReason();
    if (shuttingDown != null) {
      goAway(StatusCode.OK, shuttingDown); // opened while the server was telling all to go away
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event == PrefaceHandler.HANDSHAKE_DONE) {
      handshakeDone = true;
      if (!transport.connectionSpoke(channel)) {
        // Refused only now, after the preface, so the client can read why.
        transport.logRefusal(
            remoteAddress,
            (transport.connectionCount() - 1) + " connections are open (limit maxConnections "
                + transport.maxConnections() + ")");
        goAway(
            StatusCode.RESOURCE_EXHAUSTED,
            "the server has too many connections (limit " + transport.maxConnections() + ")");
        channel.eventLoop().schedule(() -> channel.close(), 5, TimeUnit.SECONDS);
      } else if (drainReason != null) {
        sendGoAway(); // told to go away before its client's preface came: it can read why now
      }
    } else if (event instanceof IdleStateEvent
        && ((IdleStateEvent) event).state() == IdleState.READER_IDLE
        && callsInFlight.count() == 0
        && !goAwaySent) {
      closeIdle(ctx);
    }
    super.userEventTriggered(ctx, event);
  }

  /**
   * Nothing arrived for the idle timeout and no call is in flight. A client that speaks RPCX is
   * told with GOAWAY and closes the connection itself: a call it sends meanwhile is refused as
   * not processed and retried, where a bare close could lose it in flight. Closed here after a
   * few seconds if the client does not; closed at once if it never completed its handshake.
   */
  private void closeIdle(ChannelHandlerContext ctx) {
    if (!handshakeDone) {
      logger.debug("Closing connection from {}: idle", remoteAddress);
      ctx.close();
      return;
    }
    logger.debug("Connection from {} is idle: sending GOAWAY", remoteAddress);
    retire("the connection was idle, with no call in flight");
    channel.eventLoop().schedule(() -> channel.close(), 5, TimeUnit.SECONDS);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    streams.readComplete();
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    streams.readComplete(); // those of a read cut short first
    transport.connectionGone(this);
    streams.connectionLost();
    unaryCalls.cancelAll("the client's connection closed");
    super.channelInactive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    if (closing) {
      frame.release();
      return;
    }
    byte type = frame.readByte();
    frame.skipBytes(1); // flags: reserved
    switch (type) {
      case FrameType.REQUEST:
        dispatcher.onRequest(this, new NettyPayload(frame, meter));
        break;
      case FrameType.PING:
        if (frame.readableBytes() != FrameType.PING_PAYLOAD_SIZE) {
          frame.release();
          closeForProtocolError(StatusCode.BAD_REQUEST, "PING frame without an 8-byte payload");
          return;
        }
        long data = frame.readLong();
        frame.release();
        replies.sendControl(ControlFrames.ping(channel.alloc(), true, data));
        break;
      case FrameType.SCHEMA:
        try {
          SchemaFrames.read(new NettyPayload(frame), peerSchemas);
        } catch (ProtocolException e) {
          closeForProtocolError(StatusCode.BAD_REQUEST, e.getMessage());
        } finally {
          frame.release();
        }
        break;
      case FrameType.PONG:
        frame.release();
        break;
      case FrameType.STREAM_CREDIT:
      case FrameType.STREAM_CANCEL:
        streams.onControl(type, frame);
        break;
      case FrameType.STREAM_MESSAGE:
        streams.onMessage(frame, meter);
        break;
      case FrameType.STREAM_END:
        streams.onEnd(frame);
        break;
      case FrameType.GOAWAY:
        GoAway goAway = ControlFrames.parseGoAway(frame);
        frame.release();
        onClientGoAway(goAway);
        break;
      default:
        frame.release();
        closeForProtocolError(
            StatusCode.BAD_REQUEST, "unexpected frame " + FrameType.name(type) + " from a client");
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (closing) {
      return;
    }
    SSLException tls = TlsFailures.find(cause);
    if (tls != null) {
      closing = true;
      logger.warn("Closing connection from {}: TLS failed: {}", remoteAddress, tls.getMessage());
      ctx.close();
    } else if (cause instanceof FrameTooLargeException) {
      FrameTooLargeException tooLarge = (FrameTooLargeException) cause;
      closeForProtocolError(
          StatusCode.RESOURCE_EXHAUSTED,
          "frame of " + tooLarge.declaredLength() + " bytes exceeds the limit of "
              + tooLarge.limit() + " bytes");
    } else if (cause instanceof DecoderException) {
      closeForProtocolError(StatusCode.BAD_REQUEST, String.valueOf(cause.getMessage()));
    } else if (cause instanceof IOException) {
      logger.debug("Connection from {} failed: {}", remoteAddress, cause.toString());
      ctx.close();
    } else {
      logger.warn("Closing connection from {} after an unexpected error", remoteAddress, cause);
      ctx.close();
    }
  }

  @Override
  public Replies replies() {
    return replies;
  }

  @Override
  public boolean isStreamOpen(int streamId) {
    return streams.isOpen(streamId);
  }

  @Override
  public void streamOpened(OpenStream stream) {
    streams.opened(stream);
  }

  @Override
  public void streamEnded(OpenStream stream) {
    streams.ended(stream);
  }

  @Override
  public void callStarted(CancellableCall call) {
    unaryCalls.started(call);
  }

  @Override
  public void callEnded(CancellableCall call) {
    unaryCalls.ended(call);
  }

  /** The client's cancel of a call that is not a stream (docs/PROTOCOL.md, 1.7). */
  void cancelCall(int requestId, String message) {
    unaryCalls.cancel(
        requestId, "the client cancelled the call" + (message.isEmpty() ? "" : ": " + message));
  }

  @Override
  public Future<?> schedule(Runnable task, long delayNanos) {
    return channel.eventLoop().schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
  }

  /**
   * Closes the connection now, the grace period of a shutdown being over; first ends every open
   * stream with {@code STREAM_END} UNAVAILABLE, saying {@code reason}, and closes once they are
   * written. Returns the close's future.
   */
  @Override
  public ChannelFuture close(String reason) {
    unaryCalls.cancelAll(reason); // their replies could not be sent any more
    if (streams.isEmpty()) {
      return channel.close();
    }
    streams.shutDown(reason);
    replies.closeOnceWritten(); // behind the STREAM_END frames just queued
    return channel.closeFuture();
  }

  @Override
  public PeerSchemas peerSchemas() {
    return peerSchemas;
  }

  @Override
  public String drainReason() {
    return drainReason;
  }

  @Override
  public boolean tryStartCall() {
    return callsInFlight.tryStart();
  }

  @Override
  public void callAnswered() {
    callsInFlight.answered();
  }

  @Override
  public void callFinished() {
    if (callsInFlight.finish() && clientGoingAway) {
      replies.closeOnceWritten();
    }
  }

  /**
   * The client sent GOAWAY: it promises no new call on this connection (docs/PROTOCOL.md, 1.5).
   * The calls it made are answered; a request that still arrives is refused as not processed;
   * the connection closes once no call is in flight and every reply is written.
   */
  private void onClientGoAway(GoAway goAway) {
    logger.debug(
        "{} sent GOAWAY ({}: {}); closing once its {} calls in flight are answered",
        remoteAddress,
        goAway.code(),
        goAway.message(),
        callsInFlight.count());
    if (drainReason == null) {
      drainReason = "the client sent GOAWAY, promising no more calls on this connection";
    }
    clientGoingAway = true;
    if (callsInFlight.count() == 0) {
      replies.closeOnceWritten();
    }
  }

  @Override
  public int maxConcurrentCalls() {
    return callsInFlight.limit();
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public void reset() {
    // Behind the replies queued before it on the event loop, which are sent first.
    channel.eventLoop().execute(
        () -> {
          closing = true;
          ServedConnection.resetNow(channel);
        });
  }

  @Override
  public void closeForProtocolError(StatusCode code, String problem) {
    channel.eventLoop().execute(() -> {
      if (closing) {
        return;
      }
      closing = true;
      logger.warn("Closing connection from {}: {}", remoteAddress, problem);
      channel.writeAndFlush(ControlFrames.goAway(channel.alloc(), code, problem))
          .addListener(ChannelFutureListener.CLOSE);
    });
  }

  /**
   * Refuses new calls from now on, saying {@code reason}, and sends GOAWAY: at once, or after the
   * preface exchange if it is not done yet (a frame before the server's preface would read to the
   * client as a broken preface).
   */
  @Override
  public void goAway(StatusCode code, String reason) {
    drainCode = code;
    drainReason = reason;
    drainConnectionOnly = false;
    channel.eventLoop().execute(this::sendGoAway);
  }

  @Override
  public void retire(String reason) {
    if (drainReason != null) {
      return; // going away already, maybe with the whole server
    }
    drainCode = StatusCode.OK;
    drainReason = reason;
    drainConnectionOnly = true;
    channel.eventLoop().execute(this::sendGoAway);
  }

  private void sendGoAway() {
    if (!handshakeDone || goAwaySent || closing || !channel.isActive()) {
      return;
    }
    goAwaySent = true;
    channel.writeAndFlush(
        ControlFrames.goAway(
            channel.alloc(), new GoAway(drainCode, drainReason, drainConnectionOnly)));
  }

  Channel channel() {
    return channel;
  }
}
