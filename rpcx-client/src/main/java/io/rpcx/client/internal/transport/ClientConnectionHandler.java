package io.rpcx.client.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.GoAway;
import io.rpcx.core.internal.transport.ControlFrames;
import io.rpcx.core.internal.transport.FrameTooLargeException;
import io.rpcx.core.internal.transport.PrefaceException;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.TlsFailures;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client end of one connection in the pipeline: turns frames and channel events into calls on
 * its {@link ClientConnection}. A server that breaks the protocol gets the connection closed, and
 * the calls pending on it fail with the reason.
 */
final class ClientConnectionHandler extends ChannelInboundHandlerAdapter {
  private static final Logger logger = LoggerFactory.getLogger(ClientConnectionHandler.class);

  private final String address;
  private final ClientConnection connection;

  ClientConnectionHandler(String address, ClientConnection connection) {
    this.address = address;
    this.connection = connection;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    connection.bind(ctx.channel());
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    connection.onActive();
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    connection.onReadComplete(); // messages of a read cut short first
    connection.onInactive();
    super.channelInactive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event == PrefaceHandler.HANDSHAKE_DONE) {
      connection.onHandshakeDone();
    } else if (event instanceof SslHandshakeCompletionEvent) {
      connection.onTlsHandshake(((SslHandshakeCompletionEvent) event).cause());
    } else if (event instanceof IdleStateEvent
        && ((IdleStateEvent) event).state() == IdleState.READER_IDLE) {
      connection.onReadIdle();
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    connection.onRead();
    byte type = frame.readByte();
    frame.skipBytes(1); // flags: reserved
    switch (type) {
      case FrameType.REPLY:
        connection.onReply(frame);
        break;
      case FrameType.PING:
        if (frame.readableBytes() == FrameType.PING_PAYLOAD_SIZE) {
          long data = frame.readLong();
          ctx.writeAndFlush(ControlFrames.ping(ctx.alloc(), true, data));
        }
        frame.release();
        break;
      case FrameType.PONG:
        if (frame.readableBytes() == FrameType.PING_PAYLOAD_SIZE) {
          connection.onPong(frame.readLong());
        }
        frame.release();
        break;
      case FrameType.SCHEMA:
        connection.onSchema(frame);
        break;
      case FrameType.STREAM_MESSAGE:
        connection.streams().onMessage(frame);
        break;
      case FrameType.STREAM_END:
        connection.streams().onEnd(frame);
        break;
      case FrameType.STREAM_CREDIT:
        connection.streams().onCredit(frame);
        break;
      case FrameType.GOAWAY:
        GoAway goAway = ControlFrames.parseGoAway(frame);
        frame.release();
        connection.onGoAway(goAway.message(), goAway.connectionOnly());
        break;
      default:
        frame.release();
        protocolError("sent an unexpected frame " + FrameType.name(type));
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    connection.onReadComplete();
    ctx.fireChannelReadComplete();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof PrefaceException) {
      logger.warn("Closing connection to {}: {}", address, cause.getMessage());
      connection.closeWith(
          UnavailableException.notProcessed(
              address + " is not a usable RPCX server: " + cause.getMessage()));
    } else if (TlsFailures.find(cause) != null) {
      logger.warn("Closing connection to {}: TLS failed: {}", address, tlsProblem(cause));
      connection.closeWith(
          UnavailableException.notProcessed(
              "TLS with " + address + " failed: " + tlsProblem(cause), cause));
    } else if (cause instanceof FrameTooLargeException) {
      logger.warn("Closing connection to {}: {}", address, cause.getMessage());
      connection.closeWith(
          new ResourceExhaustedException(
              "a reply from " + address + " was too large: " + cause.getMessage()));
    } else if (cause instanceof DecoderException) {
      protocolError("sent a malformed frame: " + cause.getMessage());
    } else if (cause instanceof IOException) {
      logger.debug("Connection to {} failed: {}", address, cause.toString());
      connection.onIoFailure((IOException) cause);
    } else {
      logger.warn("Closing connection to {} after an unexpected error", address, cause);
      connection.closeWith(
          new InternalErrorException(
              "unexpected error on the connection to " + address + ": " + cause, cause));
    }
  }

  private static String tlsProblem(Throwable cause) {
    String problem = CallFailures.describe(TlsFailures.find(cause));
    String lower = problem.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("bad_certificate") || lower.contains("certificate_required")) {
      problem += " (the server requires a client certificate it trusts: mutual TLS needs"
          + " TlsConfig.client().keyPair(...))";
    }
    return problem;
  }

  private void protocolError(String problem) {
    logger.warn("Closing connection to {}: the server {}", address, problem);
    connection.closeWith(
        new InternalErrorException("the server at " + address + " " + problem, null));
  }
}
