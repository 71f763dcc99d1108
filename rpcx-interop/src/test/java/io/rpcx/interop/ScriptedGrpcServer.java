package io.rpcx.interop;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamFrame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;

/**
 * An HTTP/2 server that answers each method (the last segment of {@code :path}) with a scripted
 * response, well-formed or not, once the request has ended: what a broken or non-gRPC server sends,
 * which no real gRPC server would. Built on Netty's HTTP/2 frame codec.
 */
final class ScriptedGrpcServer implements AutoCloseable {
  /** Writes a response on the stream of {@code ctx}. */
  interface Answer extends Consumer<ChannelHandlerContext> {}

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel channel;

  ScriptedGrpcServer(Map<String, Answer> answers) throws InterruptedException {
    channel =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<Channel>() {
                  @Override
                  protected void initChannel(Channel connection) {
                    connection
                        .pipeline()
                        .addLast(Http2FrameCodecBuilder.forServer().build())
                        .addLast(
                            new Http2MultiplexHandler(
                                new ChannelInitializer<Channel>() {
                                  @Override
                                  protected void initChannel(Channel stream) {
                                    stream.pipeline().addLast(new Stream(answers));
                                  }
                                }));
                  }
                })
            .bind(new InetSocketAddress("127.0.0.1", 0))
            .sync()
            .channel();
  }

  /** {@code grpc://127.0.0.1:<port>}. */
  String target() {
    return "grpc://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** One request stream: its method, answered once the client ended it. */
  private static final class Stream extends SimpleChannelInboundHandler<Http2StreamFrame> {
    private final Map<String, Answer> answers;
    private String method;

    Stream(Map<String, Answer> answers) {
      this.answers = answers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Http2StreamFrame frame) {
      boolean end = false;
      if (frame instanceof Http2HeadersFrame headers) {
        String path = String.valueOf(headers.headers().path());
        method = path.substring(path.lastIndexOf('/') + 1);
        end = headers.isEndStream();
      } else if (frame instanceof Http2DataFrame data) {
        end = data.isEndStream();
      }
      if (end) {
        answers
            .getOrDefault(method, headersOnly(ok().set("grpc-status", "12"))) // UNIMPLEMENTED
            .accept(ctx);
      }
    }
  }

  // Answers.

  static Http2Headers ok() {
    return new DefaultHttp2Headers().status("200").set("content-type", "application/grpc");
  }

  /** DATA before any response headers, then the trailers. */
  static Answer dataFirst(ByteBuf data) {
    return ctx -> {
      ctx.write(new DefaultHttp2DataFrame(data.retainedDuplicate(), false));
      ctx.writeAndFlush(new DefaultHttp2HeadersFrame(ok().set("grpc-status", "0"), true));
    };
  }

  static Answer headersOnly(Http2Headers headers) {
    return ctx -> ctx.writeAndFlush(new DefaultHttp2HeadersFrame(headers, true));
  }

  /** Headers {@code first}, then each DATA payload, then {@code trailers} (none: DATA ends it). */
  static Answer response(Http2Headers first, Http2Headers trailers, ByteBuf... data) {
    return ctx -> {
      ctx.write(new DefaultHttp2HeadersFrame(first, false));
      for (int i = 0; i < data.length; i++) {
        ctx.write(
            new DefaultHttp2DataFrame(data[i].retainedDuplicate(), trailers == null && i == data.length - 1));
      }
      if (trailers != null) {
        ctx.write(new DefaultHttp2HeadersFrame(trailers, true));
      }
      ctx.flush();
    };
  }

  /**
   * Response headers, then {@code bytes} as they are on the connection, outside any frame: what a
   * broken HTTP/2 peer sends.
   */
  static Answer garbled(ByteBuf bytes) {
    return ctx -> {
      ctx.writeAndFlush(new DefaultHttp2HeadersFrame(ok(), false));
      ctx.channel().parent().pipeline().firstContext().writeAndFlush(bytes.retainedDuplicate());
    };
  }

  /** A gRPC message of {@code length} bytes by its prefix, of which only {@code payload} follows. */
  static ByteBuf messageDeclaring(int length, byte... payload) {
    return Unpooled.buffer().writeByte(0).writeInt(length).writeBytes(payload);
  }

  /** A compressed gRPC message: {@code payload} gzipped. */
  static ByteBuf gzipped(byte... payload) {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
      out.write(payload);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return message(1, zipped.toByteArray());
  }

  /** A gRPC message: flag {@code flag}, then {@code payload}. */
  static ByteBuf message(int flag, byte... payload) {
    return Unpooled.buffer().writeByte(flag).writeInt(payload.length).writeBytes(payload);
  }

  static Http2Headers status(int code) {
    return new DefaultHttp2Headers().set("grpc-status", Integer.toString(code));
  }
}
