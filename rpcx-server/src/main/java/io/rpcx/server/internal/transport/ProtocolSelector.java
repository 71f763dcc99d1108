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
 * ({@code PRI * HTTP/2.0}) is HTTP/2 (gRPC, and the server's HTTP side), a request line's method
 * ({@code GET }, {@code POST }, ...) is HTTP/1.x where the port serves HTTP, and anything else goes
 * to RPCX's own preface check, which turns away what is not RPCX with a message naming what it
 * saw (on a port of HTTP alone, it is closed). A connection that sends nothing within the preface
 * timeout is closed.
 */
final class ProtocolSelector extends ByteToMessageDecoder {
  private static final Logger logger = LoggerFactory.getLogger(ProtocolSelector.class);
  private static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0".getBytes(StandardCharsets.US_ASCII);
  /** How an HTTP/1.x request starts: its method and a space (RFC 9110's methods, and PATCH). */
  private static final byte[][] HTTP1_METHODS = {
    ascii("GET "), ascii("POST "), ascii("HEAD "), ascii("PUT "), ascii("DELETE "),
    ascii("OPTIONS "), ascii("PATCH "), ascii("TRACE "), ascii("CONNECT ")
  };

  /** Adds the handlers of the protocol chosen, after the selector. */
  interface Protocols {
    void rpcx(ChannelHandlerContext ctx);

    /** HTTP/2: gRPC, and HTTP requests that are not gRPC where the port serves HTTP. */
    void grpc(ChannelHandlerContext ctx);

    /** HTTP/1.x, where the port serves HTTP. */
    void http1(ChannelHandlerContext ctx);
  }

  private final Protocols protocols;
  private final long timeoutMillis;
  /** Whether the port serves HTTP/1.x. */
  private final boolean http1;
  /** Whether the port serves RPCX's own protocol; if not, what is neither HTTP version is closed. */
  private final boolean rpcx;
  private ScheduledFuture<?> timeout;
  /** Closing: the client speaks nothing this port serves. */
  private boolean refused;

  ProtocolSelector(Protocols protocols, long timeoutMillis, boolean http1, boolean rpcx) {
    this.protocols = protocols;
    this.timeoutMillis = timeoutMillis;
    this.http1 = http1;
    this.rpcx = rpcx;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
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

  /** What a connection's first bytes are. */
  private enum Start {
    /** Too few bytes to tell yet. */
    UNKNOWN,
    /** Its whole prefix: this protocol. */
    MATCH,
    /** Not this protocol. */
    OTHER
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (refused) {
      in.skipBytes(in.readableBytes());
      return;
    }
    Start http2 = starts(in, HTTP2_PREFACE);
    if (http2 == Start.MATCH) {
      choose(ctx, Protocol.HTTP2);
      return;
    }
    boolean undecided = http2 == Start.UNKNOWN;
    if (http1) {
      for (byte[] method : HTTP1_METHODS) {
        Start start = starts(in, method);
        if (start == Start.MATCH) {
          choose(ctx, Protocol.HTTP1);
          return;
        }
        undecided |= start == Start.UNKNOWN;
      }
    }
    if (!undecided) {
      choose(ctx, Protocol.RPCX);
    }
    // else: a prefix of one of them so far; wait for more
  }

  private static Start starts(ByteBuf in, byte[] prefix) {
    int readable = Math.min(in.readableBytes(), prefix.length);
    for (int i = 0; i < readable; i++) {
      if (in.getByte(in.readerIndex() + i) != prefix[i]) {
        return Start.OTHER;
      }
    }
    return readable == prefix.length ? Start.MATCH : Start.UNKNOWN;
  }

  private enum Protocol {
    RPCX,
    HTTP1,
    HTTP2
  }

  private void choose(ChannelHandlerContext ctx, Protocol protocol) {
    if (timeout != null) {
      timeout.cancel(false);
    }
    switch (protocol) {
      case HTTP2 -> protocols.grpc(ctx);
      case HTTP1 -> protocols.http1(ctx);
      default -> {
        if (!rpcx) {
          logger.warn(
              "Closing connection from {}: this port serves HTTP only, and the client speaks"
                  + " something else",
              ctx.channel().remoteAddress());
          refused = true;
          ctx.close();
          return;
        }
        protocols.rpcx(ctx);
      }
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
