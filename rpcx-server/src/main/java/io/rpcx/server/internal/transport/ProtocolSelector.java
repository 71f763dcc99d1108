package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.util.concurrent.ScheduledFuture;
import io.rpcx.core.internal.transport.TlsFailures;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the protocols of one port apart by a connection's first bytes (after TLS, if any), then
 * steps out of the pipeline, leaving the handlers of the one spoken: the HTTP/2 connection preface
 * ({@code PRI * HTTP/2.0}) is gRPC, anything else goes to RPCX's own preface check, which turns
 * away what is not RPCX with a message naming what it saw. A connection that sends nothing within
 * the preface timeout is closed.
 */
final class ProtocolSelector extends ByteToMessageDecoder {
  private static final Logger logger = LoggerFactory.getLogger(ProtocolSelector.class);
  private static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0".getBytes(StandardCharsets.US_ASCII);

  /** Adds the handlers of the protocol chosen, after the selector. */
  interface Protocols {
    void rpcx(ChannelHandlerContext ctx);

    void grpc(ChannelHandlerContext ctx);
  }

  private final Protocols protocols;
  private final long timeoutMillis;
  private ScheduledFuture<?> timeout;

  ProtocolSelector(Protocols protocols, long timeoutMillis) {
    this.protocols = protocols;
    this.timeoutMillis = timeoutMillis;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (ctx.channel().isActive()) {
      startTimer(ctx);
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    startTimer(ctx);
    super.channelActive(ctx);
  }

  private void startTimer(ChannelHandlerContext ctx) {
    if (timeout == null) {
      timeout =
          ctx.executor()
              .schedule(
                  () -> {
                    logger.warn(
                        "Closing connection from {}: no RPCX or HTTP/2 preface within {} ms",
                        ctx.channel().remoteAddress(),
                        timeoutMillis);
                    ctx.close();
                  },
                  timeoutMillis,
                  TimeUnit.MILLISECONDS);
    }
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    int readable = Math.min(in.readableBytes(), HTTP2_PREFACE.length);
    for (int i = 0; i < readable; i++) {
      if (in.getByte(in.readerIndex() + i) != HTTP2_PREFACE[i]) {
        choose(ctx, false);
        return;
      }
    }
    if (readable == HTTP2_PREFACE.length) {
      choose(ctx, true);
    }
    // else: a prefix of HTTP/2's preface so far; wait for more
  }

  private void choose(ChannelHandlerContext ctx, boolean http2) {
    if (timeout != null) {
      timeout.cancel(false);
    }
    if (http2) {
      protocols.grpc(ctx);
    } else {
      protocols.rpcx(ctx);
    }
    ctx.pipeline().remove(this); // what it buffered goes on to the handlers just added
  }

  /**
   * What fails before a protocol is chosen: TLS (a plaintext client on a TLS port, a failed
   * handshake) or the connection itself. Logged in one line naming the cause; the connection
   * closes, and no other is touched.
   */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    SocketAddress remote = ctx.channel().remoteAddress();
    SSLException tls = TlsFailures.find(cause);
    if (tls != null) {
      logger.warn("Closing connection from {}: TLS failed: {}", remote, describe(tls));
    } else if (cause instanceof IOException) {
      logger.debug("Connection from {} failed: {}", remote, cause.toString());
    } else {
      logger.warn("Closing connection from {} after an unexpected error", remote, cause);
    }
    ctx.close();
  }

  /** {@code failure}'s message, saying what a plaintext client on this TLS port speaks. */
  static String describe(SSLException failure) {
    String message = String.valueOf(failure.getMessage());
    if (!(failure instanceof NotSslRecordException)) {
      return message;
    }
    String hex = message.substring(message.lastIndexOf(' ') + 1).toLowerCase(Locale.ROOT);
    String speaks =
        hex.startsWith("505249202a2048545450") // "PRI * HTTP"
            ? "HTTP/2 without TLS (a gRPC client using plaintext)"
            : hex.startsWith("52504358") // "RPCX"
                ? "RPCX without TLS (a client with no TlsConfig)"
                : "something other than TLS";
    return "the client speaks " + speaks + ", and this port requires TLS (" + message + ")";
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (timeout != null) {
      timeout.cancel(false);
    }
  }
}
