package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.Preface;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exchanges the connection preface, then steps out of the pipeline.
 *
 * <p>On a client, it sends the client's preface as soon as the connection is up (requests may follow
 * at once, without waiting for the answer) and checks the server's. On a server, it waits for the
 * client's preface, at most {@code timeoutMillis}, and answers with its own. A wrong magic closes
 * the connection; a client learns why through an exception carrying a {@link PrefaceException}.
 */
public final class PrefaceHandler extends ByteToMessageDecoder {
  private static final Logger logger = LoggerFactory.getLogger(PrefaceHandler.class);
  private static final byte[] PREFACE = Preface.bytes();

  /** User event fired once the peer's preface has been accepted. */
  public static final Object HANDSHAKE_DONE = new Object() {
    @Override
    public String toString() {
      return "RPCX_HANDSHAKE_DONE";
    }
  };

  private final boolean server;
  private final long timeoutMillis;
  private ScheduledFuture<?> timeout;
  private boolean failed;

  private PrefaceHandler(boolean server, long timeoutMillis) {
    this.server = server;
    this.timeoutMillis = timeoutMillis;
  }

  /** The handler of a server-side connection, closing it if no preface arrives in time. */
  public static PrefaceHandler forServer(long timeoutMillis) {
    return new PrefaceHandler(true, timeoutMillis);
  }

  /** The handler of a client-side connection. */
  public static PrefaceHandler forClient() {
    return new PrefaceHandler(false, 0);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    if (server) {
      timeout =
          ctx.executor()
              .schedule(
                  () -> {
                    logger.warn(
                        "Closing connection from {}: no RPCX preface within {} ms",
                        ctx.channel().remoteAddress(),
                        timeoutMillis);
                    ctx.close();
                  },
                  timeoutMillis,
                  TimeUnit.MILLISECONDS);
    } else {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(PREFACE));
    }
    super.channelActive(ctx);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (in.readableBytes() < Preface.LENGTH) {
      return;
    }
    if (timeout != null) {
      timeout.cancel(false);
    }
    byte[] received = new byte[Preface.LENGTH];
    in.readBytes(received);
    int magic = ((received[0] & 0xff) << 24) | ((received[1] & 0xff) << 16)
        | ((received[2] & 0xff) << 8) | (received[3] & 0xff);
    int version = ((received[4] & 0xff) << 8) | (received[5] & 0xff);
    if (magic != Preface.MAGIC) {
      String tls = Preface.tlsRecord(received);
      String peer = server ? "client" : "server";
      fail(ctx, "invalid preface " + Preface.describe(received, received.length) + ": "
          + (tls == null ? "not an RPCX " + peer
              : tls + ": the " + peer + " uses TLS, and this " + (server ? "server" : "client")
                  + " does not (give both sides a TlsConfig, or neither)"));
      return;
    }
    if (version != Preface.VERSION) {
      String problem = "peer speaks RPCX protocol version " + version + ", this "
          + (server ? "server" : "client") + " speaks version " + Preface.VERSION;
      if (server) {
        ctx.write(Unpooled.wrappedBuffer(PREFACE));
        ctx.writeAndFlush(ControlFrames.goAway(ctx.alloc(), StatusCode.BAD_REQUEST, problem))
            .addListener(ChannelFutureListener.CLOSE);
        logger.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), problem);
        failed = true;
        in.skipBytes(in.readableBytes());
        return;
      }
      fail(ctx, problem);
      return;
    }
    if (server) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(PREFACE));
    }
    ctx.fireUserEventTriggered(HANDSHAKE_DONE);
    ctx.pipeline().remove(this);
  }

  private void fail(ChannelHandlerContext ctx, String problem) {
    failed = true;
    ByteBuf in = internalBuffer();
    in.skipBytes(in.readableBytes());
    if (server) {
      logger.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), problem);
      ctx.close();
    } else {
      ctx.fireExceptionCaught(new PrefaceException(problem));
      ctx.close();
    }
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (timeout != null) {
      timeout.cancel(false);
    }
  }
}
