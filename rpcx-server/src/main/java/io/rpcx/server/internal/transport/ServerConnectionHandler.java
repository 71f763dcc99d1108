package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.ReplyWriter;
import io.rpcx.core.internal.protocol.SchemaFrames;
import io.rpcx.core.internal.protocol.SizeHints;
import io.rpcx.core.internal.protocol.GoAway;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.transport.QueuedWrite;
import io.rpcx.core.internal.transport.SchemaAnnouncements;
import io.rpcx.core.internal.transport.ControlFrames;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.FrameTooLargeException;
import io.rpcx.core.internal.transport.FrameWrite;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.Frames;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.WriteQueue;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import io.rpcx.server.internal.dispatch.ServerConnection;
import io.rpcx.server.internal.dispatch.ServerMethod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.TlsFailures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server end of one connection: takes frames from the {@code FrameDecoder}, hands requests to
 * the dispatcher, answers pings, and writes replies through a batching {@link WriteQueue}. A peer
 * that breaks the protocol is told why (GOAWAY), logged once, and disconnected; other connections
 * are not affected.
 */
final class ServerConnectionHandler extends ChannelInboundHandlerAdapter
    implements ServerConnection {
  private static final Logger logger = LoggerFactory.getLogger(ServerConnectionHandler.class);

  private final ServerTransport transport;
  private final RequestDispatcher dispatcher;
  private final int maxFrameSize;
  private final int maxConcurrentCalls;
  private final AtomicInteger callsInFlight = new AtomicInteger();
  private InboundMeter meter;
  private Channel channel;
  private WriteQueue writes;
  private String remoteAddress = "?";
  private volatile String drainReason;
  /** The client sent GOAWAY; the connection closes when no call is in flight. */
  private volatile boolean clientGoingAway;
  private final AtomicBoolean closeScheduled = new AtomicBoolean();
  private volatile StatusCode drainCode = StatusCode.OK;
  /** Both prefaces were exchanged: frames may follow. Event loop only. */
  private boolean handshakeDone;
  /** GOAWAY was sent; a connection gets one. Event loop only. */
  private boolean goAwaySent;
  private boolean closing;
  private boolean overConnectionLimit;
  private final SchemaAnnouncements announcements = new SchemaAnnouncements();
  private final PeerSchemas peerSchemas = new PeerSchemas();

  ServerConnectionHandler(
      ServerTransport transport,
      RequestDispatcher dispatcher,
      int maxFrameSize,
      int maxConcurrentCalls) {
    this.transport = transport;
    this.dispatcher = dispatcher;
    this.maxFrameSize = maxFrameSize;
    this.maxConcurrentCalls = maxConcurrentCalls;
  }

  /** Where requests received and not yet decoded are counted; set before the channel starts. */
  void meter(InboundMeter meter) {
    this.meter = meter;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    writes = new WriteQueue(channel, true);
    remoteAddress = String.valueOf(channel.remoteAddress());
    overConnectionLimit = !transport.connectionOpened(this);
    String shuttingDown = transport.goAwayReason();
    if (shuttingDown != null) {
      goAway(StatusCode.OK, shuttingDown); // opened while the server was telling all to go away
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event == PrefaceHandler.HANDSHAKE_DONE) {
      handshakeDone = true;
      if (overConnectionLimit) {
        // Refused only now, after the preface, so the client can read why.
        logger.warn(
            "Refusing connection from {}: {} connections are open (limit {})",
            remoteAddress,
            transport.connectionCount() - 1,
            transport.maxConnections());
        goAway(
            StatusCode.RESOURCE_EXHAUSTED,
            "the server has too many connections (limit " + transport.maxConnections() + ")");
        channel.eventLoop().schedule(() -> channel.close(), 5, TimeUnit.SECONDS);
      } else if (drainReason != null) {
        sendGoAway(); // told to go away before its client's preface came: it can read why now
      }
    } else if (event instanceof IdleStateEvent
        && ((IdleStateEvent) event).state() == IdleState.READER_IDLE
        && callsInFlight.get() == 0) {
      logger.debug("Closing connection from {}: idle", remoteAddress);
      ctx.close();
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    transport.connectionClosed(this);
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
        writes.enqueue(new FrameWrite(ControlFrames.ping(channel.alloc(), true, data)));
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

  @Override
  public void sendError(int requestId, StatusCode code, String message, String exceptionClass) {
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
    while (true) {
      int current = callsInFlight.get();
      if (current >= maxConcurrentCalls) {
        return false;
      }
      if (callsInFlight.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  @Override
  public void callFinished() {
    if (callsInFlight.decrementAndGet() == 0 && clientGoingAway) {
      closeOnceWritten();
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
        callsInFlight.get());
    if (drainReason == null) {
      drainReason = "the client sent GOAWAY, promising no more calls on this connection";
    }
    clientGoingAway = true;
    if (callsInFlight.get() == 0) {
      closeOnceWritten();
    }
  }

  /** Closes the connection after every reply queued so far is written, once. */
  private void closeOnceWritten() {
    if (!closeScheduled.compareAndSet(false, true)) {
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

  @Override
  public int maxConcurrentCalls() {
    return maxConcurrentCalls;
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
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
  void goAway(StatusCode code, String reason) {
    drainCode = code;
    drainReason = reason;
    channel.eventLoop().execute(this::sendGoAway);
  }

  private void sendGoAway() {
    if (!handshakeDone || goAwaySent || closing || !channel.isActive()) {
      return;
    }
    goAwaySent = true;
    channel.writeAndFlush(ControlFrames.goAway(channel.alloc(), drainCode, drainReason));
  }

  Channel channel() {
    return channel;
  }
}
