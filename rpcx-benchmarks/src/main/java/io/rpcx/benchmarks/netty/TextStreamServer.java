package io.rpcx.benchmarks.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.model.Payloads;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The raw Netty floor of the streaming benchmark, server side: each request frame ({@code int
 * length}, {@code int stream id}, {@code int count}, {@code int text length}) opens a stream of
 * {@code count} element frames ({@code int length}, {@code int stream id}, {@code byte 0}, the text
 * in UTF-8), then an end frame ({@code int length}, {@code int stream id}, {@code byte 1}).
 *
 * <p>Everything runs on the connection's event loop. Open streams take turns, a few frames each;
 * frames are written while the channel is writable (TCP's flow control is the only backpressure,
 * and the server holds at most Netty's write-buffer high-water mark), flushed once per turn of at
 * most {@value #FRAMES_PER_TURN} frames, and the next turn is a new event-loop task so that requests
 * and reads are never starved. Each element's text is encoded into its frame as it is written, as
 * every system with {@code String} elements must.
 */
final class TextStreamServer implements BenchmarkServer {
  static final int MAX_FRAME = 1024 * 1024;
  static final byte ELEMENT = 0;
  static final byte END = 1;
  /** Frames one stream writes before the next open stream takes its turn. */
  private static final int FRAMES_PER_STREAM_TURN = 16;
  /** Frames written between two flushes, at most. */
  private static final int FRAMES_PER_TURN = 256;

  private final EventLoopGroup boss = NettyTransport.newGroup(1, "netty-stream-boss");
  private final EventLoopGroup workers = NettyTransport.newGroup(0, "netty-stream-worker");
  private final Channel channel;

  TextStreamServer() throws InterruptedException {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NettyTransport.serverSocketChannel())
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4))
                        .addLast(new Streams());
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

  /** One connection's open streams, written in turns; event loop only. */
  private static final class Streams extends SimpleChannelInboundHandler<ByteBuf> {
    private final ArrayDeque<Stream> open = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean turnScheduled;
    private final Runnable turn = this::turn;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      this.ctx = ctx;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf request) {
      int id = request.readInt();
      int count = request.readInt();
      int length = request.readInt();
      open.add(new Stream(id, count, Payloads.text(length)));
      scheduleTurn();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (ctx.channel().isWritable()) {
        scheduleTurn();
      }
      ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }

    private void scheduleTurn() {
      if (!turnScheduled) {
        turnScheduled = true;
        ctx.executor().execute(turn);
      }
    }

    private void turn() {
      turnScheduled = false;
      Channel ch = ctx.channel();
      int written = 0;
      while (!open.isEmpty() && written < FRAMES_PER_TURN && ch.isWritable()) {
        Stream stream = open.poll();
        for (int i = 0; i < FRAMES_PER_STREAM_TURN && stream.sent < stream.count; i++) {
          ctx.write(stream.element(ctx), ctx.voidPromise());
          stream.sent++;
          written++;
        }
        if (stream.sent < stream.count) {
          open.add(stream);
        } else {
          ByteBuf end = ctx.alloc().buffer(9);
          end.writeInt(5).writeInt(stream.id).writeByte(END);
          ctx.write(end, ctx.voidPromise());
        }
      }
      ctx.flush();
      if (!open.isEmpty() && ch.isWritable()) {
        scheduleTurn(); // else channelWritabilityChanged brings the next turn
      }
    }
  }

  /** One open stream. */
  private static final class Stream {
    final int id;
    final int count;
    final String text;
    final int utf8Length;
    int sent;

    Stream(int id, int count, String text) {
      this.id = id;
      this.count = count;
      this.text = text;
      this.utf8Length = ByteBufUtil.utf8Bytes(text);
    }

    ByteBuf element(ChannelHandlerContext ctx) {
      ByteBuf frame = ctx.alloc().buffer(9 + utf8Length);
      frame.writeInt(5 + utf8Length).writeInt(id).writeByte(ELEMENT);
      ByteBufUtil.writeUtf8(frame, text);
      return frame;
    }
  }
}
