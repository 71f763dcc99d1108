package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import java.util.Map;

/**
 * An HTTP/2 request that is not gRPC, on a {@link GrpcServerHandler}'s connection, and its answer:
 * HEADERS, then DATA through the connection's flow control (a chunk counts as written once the
 * peer's window let it out), END_STREAM on the last frame. A body that fails half way resets the
 * stream.
 */
final class Http2Exchange extends NettyHttpExchange {
  private final GrpcServerHandler connection;
  private final ChannelHandlerContext ctx;
  private final int streamId;

  Http2Exchange(
      GrpcServerHandler connection,
      ChannelHandlerContext ctx,
      int streamId,
      String method,
      String target,
      Map<String, String> headers,
      byte[] body,
      boolean secure,
      RequestDispatcher dispatcher,
      ServerConfig config) {
    super(method, target, headers, body, secure, "HTTP/2", connection, ctx.executor(), dispatcher,
        config);
    this.connection = connection;
    this.ctx = ctx;
    this.streamId = streamId;
  }

  private static Http2Headers headers(int status, Map<String, String> headers) {
    Http2Headers out = new DefaultHttp2Headers().status(Integer.toString(status));
    for (Map.Entry<String, String> header : headers.entrySet()) {
      out.set(header.getKey(), header.getValue());
    }
    return out;
  }

  @Override
  void writeWhole(int status, Map<String, String> headers, ByteBuf body) {
    Http2Headers out = headers(status, headers).setInt("content-length", body.readableBytes());
    boolean empty = !body.isReadable();
    connection.encoder().writeHeaders(ctx, streamId, out, 0, empty, ctx.newPromise());
    if (empty) {
      body.release();
    } else {
      connection.encoder().writeData(ctx, streamId, body, 0, true, ctx.newPromise());
    }
    connection.flush(ctx);
  }

  @Override
  void writeHead(int status, Map<String, String> headers) {
    connection.encoder().writeHeaders(ctx, streamId, headers(status, headers), 0, false, ctx.newPromise());
    connection.flush(ctx);
  }

  @Override
  ChannelFuture writeChunk(ByteBuf chunk) {
    ChannelPromise written = ctx.newPromise();
    connection.encoder().writeData(ctx, streamId, chunk, 0, false, written);
    connection.flush(ctx);
    return written;
  }

  @Override
  void writeEnd() {
    connection.encoder().writeData(ctx, streamId, Unpooled.EMPTY_BUFFER, 0, true, ctx.newPromise());
    connection.flush(ctx);
  }

  @Override
  void abort(Throwable cause) {
    connection.encoder().writeRstStream(ctx, streamId, Http2Error.INTERNAL_ERROR.code(), ctx.newPromise());
    connection.flush(ctx);
  }
}
