package io.rpcx.benchmarks.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.rpcx.benchmarks.api.StreamClient;
import io.rpcx.benchmarks.api.StreamPayload;
import io.rpcx.benchmarks.api.StreamTally;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The raw Netty floor of the streaming benchmark, client side ({@link TextStreamServer} has the
 * frames): one connection, {@code int} stream ids, and each element decoded into a {@code String}
 * and handed to its stream's {@link StreamTally} on the event loop, with no hand-off to another
 * thread and no credit beyond TCP's. When the connection closes every open stream fails.
 */
final class TextStreamClient implements StreamClient {
  private final EventLoopGroup group = NettyTransport.newGroup(1, "netty-stream-client");
  private final Map<Integer, StreamTally> open = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final Channel channel;
  private volatile Throwable closed;

  TextStreamClient(int port) throws InterruptedException {
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
                        .addLast(
                            new LengthFieldBasedFrameDecoder(
                                TextStreamServer.MAX_FRAME, 0, 4, 0, 4))
                        .addLast(new Elements());
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

  @Override
  public long stream(int messages, StreamPayload payload) {
    StreamTally tally = new StreamTally(messages, payload.length());
    int id = ids.incrementAndGet();
    open.put(id, tally);
    Throwable gone = closed;
    if (gone != null) {
      open.remove(id);
      tally.failed(gone);
    } else {
      ByteBuf request = channel.alloc().buffer(16);
      request.writeInt(12).writeInt(id).writeInt(messages).writeInt(payload.length());
      channel
          .writeAndFlush(request)
          .addListener(
              written -> {
                if (!written.isSuccess()) {
                  open.remove(id);
                  tally.failed(written.cause());
                }
              });
    }
    return tally.await();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    failAll(new ClosedChannelException());
  }

  private void failAll(Throwable cause) {
    closed = cause;
    open.keySet().forEach(id -> {
      StreamTally tally = open.remove(id);
      if (tally != null) {
        tally.failed(cause);
      }
    });
  }

  /** Hands each element to its stream, and ends the stream at its end frame. */
  private final class Elements extends SimpleChannelInboundHandler<ByteBuf> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      int id = frame.readInt();
      byte kind = frame.readByte();
      StreamTally tally = kind == TextStreamServer.END ? open.remove(id) : open.get(id);
      if (tally == null) {
        return;
      }
      if (kind == TextStreamServer.END) {
        tally.completed();
        return;
      }
      String text =
          frame.toString(frame.readerIndex(), frame.readableBytes(), StandardCharsets.UTF_8);
      if (!tally.accept(text.length())) {
        open.remove(id); // a floor has no cancel: the rest of this stream is dropped
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      failAll(new ClosedChannelException());
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
