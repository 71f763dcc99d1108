package io.rpcx.benchmarks.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.rpcx.benchmarks.api.BenchmarkServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A length-prefixed echo server: each frame ({@code int length}, then {@code int id} and payload)
 * goes back unchanged, written on the event loop with no copy and flushed once per read batch
 * ({@code channelReadComplete}), never per frame. Nothing is decoded, so this is the floor of what
 * any framed RPC server in Java costs.
 *
 * <p>Two framings of the same bytes on the wire: {@link #wholeFrames()} sends each frame back as
 * it came, length prefix included, one buffer per reply (the floor's server); {@link
 * #reframing()} strips the prefix and writes a new one with {@code LengthFieldPrepender}, a
 * header buffer and the payload slice per reply (the server of the per-call-flush variant, as it
 * has always been measured).
 */
final class EchoServer implements BenchmarkServer {
  /** Largest frame accepted: a 1 MiB payload in UTF-8 and then some. */
  static final int MAX_FRAME = 16 * 1024 * 1024;

  private final EventLoopGroup boss = NettyTransport.newGroup(1, "netty-echo-boss");
  private final EventLoopGroup workers = NettyTransport.newGroup(0, "netty-echo-worker");
  private final Channel channel;

  /** The floor's server: frames go back whole, length prefix included. */
  static EchoServer wholeFrames() throws InterruptedException {
    return new EchoServer(true);
  }

  /** The per-call-flush variant's server: prefix stripped, then prepended again. */
  static EchoServer reframing() throws InterruptedException {
    return new EchoServer(false);
  }

  private EchoServer(boolean wholeFrames) throws InterruptedException {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NettyTransport.serverSocketChannel())
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    LengthFieldBasedFrameDecoder frames =
                        new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, wholeFrames ? 0 : 4);
                    // Echoed frames are slices of the cumulation buffer that stay alive until
                    // written; with the default merging cumulator every read then copies the
                    // whole shared cumulation (quadratic with 1 MiB frames from many threads: 34
                    // instead of ~550 calls/s).
                    frames.setCumulator(ByteToMessageDecoder.COMPOSITE_CUMULATOR);
                    ch.pipeline().addLast(frames);
                    if (!wholeFrames) {
                      ch.pipeline().addLast(new LengthFieldPrepender(4));
                    }
                    ch.pipeline().addLast(Echo.INSTANCE);
                  }
                });
    try {
      channel =
          bootstrap
              .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
              .sync()
              .channel();
    } catch (InterruptedException | RuntimeException e) {
      shutdown();
      throw e;
    }
  }

  @Override
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    shutdown();
  }

  private void shutdown() {
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Writes every frame back; ownership of the frame passes to the outbound pipeline. */
  @ChannelHandler.Sharable
  private static final class Echo extends ChannelInboundHandlerAdapter {
    static final Echo INSTANCE = new Echo();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object frame) {
      ctx.write(frame, ctx.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
