package io.rpcx.benchmarks.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client of {@link EchoServer}: one connection shared by all calling threads, replies matched
 * to calls by an {@code int} id in a map of pending futures, each request written and flushed at
 * once. The pending map belongs to this connection; when the connection closes, every pending call
 * fails.
 *
 * <p>Thread-safe. Byte ownership: a request buffer is handed to Netty by {@code writeAndFlush}; a
 * reply frame is copied to a {@code byte[]} on the event loop and released there, so callers never
 * see a {@link ByteBuf}.
 */
final class EchoClient implements AutoCloseable {
  private static final long TIMEOUT_SECONDS = 60;

  private final EventLoopGroup group = NettyTransport.newGroup(1, "netty-echo-client");
  private final Map<Integer, CompletableFuture<byte[]>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final Channel channel;

  EchoClient(int port) throws InterruptedException {
    Bootstrap bootstrap =
        new Bootstrap()
            .group(group)
            .channel(NettyTransport.socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new LengthFieldBasedFrameDecoder(EchoServer.MAX_FRAME, 0, 4, 0, 4))
                        .addLast(new LengthFieldPrepender(4))
                        .addLast(new ReplyHandler());
                  }
                });
    try {
      channel =
          bootstrap
              .connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
              .sync()
              .channel();
    } catch (InterruptedException | RuntimeException e) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw e;
    }
  }

  /** Sends {@code text} as UTF-8 and returns the echoed text. */
  String echo(String text) {
    ByteBuf request = channel.alloc().buffer(4 + ByteBufUtil.utf8Bytes(text));
    request.writeInt(0);
    ByteBufUtil.writeUtf8(request, text);
    return new String(call(request), StandardCharsets.UTF_8);
  }

  /** Sends {@code data} and returns the echoed bytes. */
  byte[] echo(byte[] data) {
    ByteBuf request = channel.alloc().buffer(4 + data.length);
    request.writeInt(0);
    request.writeBytes(data);
    return call(request);
  }

  /**
   * Stamps a new id into the first 4 bytes of {@code request}, sends it and waits for the reply.
   */
  private byte[] call(ByteBuf request) {
    int id = ids.incrementAndGet();
    request.setInt(0, id);
    CompletableFuture<byte[]> reply = new CompletableFuture<>();
    pending.put(id, reply);
    ChannelFuture write = channel.writeAndFlush(request);
    write.addListener(
        f -> {
          if (!f.isSuccess()) {
            fail(id, f.cause());
          }
        });
    try {
      return reply.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      pending.remove(id);
      throw new IllegalStateException(
          "no reply to call " + id + " within " + TIMEOUT_SECONDS + " s", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("call " + id + " failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      pending.remove(id);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for call " + id, e);
    }
  }

  private void fail(int id, Throwable cause) {
    CompletableFuture<byte[]> reply = pending.remove(id);
    if (reply != null) {
      reply.completeExceptionally(cause);
    }
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /**
   * Completes the pending call each reply belongs to; fails them all when the connection closes.
   */
  private final class ReplyHandler extends SimpleChannelInboundHandler<ByteBuf> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      int id = frame.readInt();
      CompletableFuture<byte[]> reply = pending.remove(id);
      if (reply != null) {
        reply.complete(ByteBufUtil.getBytes(frame));
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      IOException closed = new ClosedChannelException();
      pending.keySet().forEach(id -> fail(id, closed));
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
