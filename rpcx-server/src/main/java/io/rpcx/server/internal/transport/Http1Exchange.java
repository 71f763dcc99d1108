package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import java.util.Map;

/**
 * An HTTP/1.x request of an {@link Http1ServerHandler}'s connection, and its answer: a response
 * with {@code content-length}, or one whose body goes out chunked. The connection hears when the
 * answer is written, to read the next request or close ({@code connection: close}, HTTP/1.0
 * without keep-alive, a refused request, a draining server).
 */
final class Http1Exchange extends NettyHttpExchange {
  private final Http1ServerHandler owner;
  private final ChannelHandlerContext ctx;
  private final HttpVersion version;
  /** The connection stays open after this answer. */
  private final boolean keepAlive;
  /** What the server refused the request for (status and problem), or null: it is served. */
  final int refusedStatus;
  final String refusedProblem;

  Http1Exchange(
      Http1ServerHandler owner,
      ChannelHandlerContext ctx,
      String method,
      String target,
      HttpVersion version,
      Map<String, String> headers,
      byte[] body,
      boolean keepAlive,
      int refusedStatus,
      String refusedProblem,
      RequestDispatcher dispatcher,
      ServerConfig config) {
    super(
        method,
        target,
        headers,
        body,
        owner.isSecure(),
        version.text(),
        owner,
        ctx.executor(),
        dispatcher,
        config);
    this.owner = owner;
    this.ctx = ctx;
    this.version = version;
    this.keepAlive = keepAlive && refusedProblem == null;
    this.refusedStatus = refusedStatus;
    this.refusedProblem = refusedProblem;
  }

  /** Whether the connection closes after this answer. */
  private boolean closesAfter() {
    return !keepAlive || owner.closesAfterAnswer();
  }

  private void headers(HttpResponse response, Map<String, String> headers) {
    HttpHeaders out = response.headers();
    for (Map.Entry<String, String> header : headers.entrySet()) {
      out.set(header.getKey(), header.getValue());
    }
    if (closesAfter()) {
      out.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    } else if (version == HttpVersion.HTTP_1_0) {
      out.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
    }
  }

  @Override
  void writeWhole(int status, Map<String, String> headers, ByteBuf body) {
    DefaultFullHttpResponse response =
        new DefaultFullHttpResponse(version, HttpResponseStatus.valueOf(status), body);
    headers(response, headers);
    HttpUtil.setContentLength(response, body.readableBytes());
    ctx.writeAndFlush(response).addListener(written -> owner.answered(this, closesAfter()));
  }

  @Override
  void writeHead(int status, Map<String, String> headers) {
    DefaultHttpResponse response = new DefaultHttpResponse(version, HttpResponseStatus.valueOf(status));
    headers(response, headers);
    if (version == HttpVersion.HTTP_1_1) {
      HttpUtil.setTransferEncodingChunked(response, true);
    } else {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE); // the close ends it
    }
    ctx.writeAndFlush(response);
  }

  @Override
  ChannelFuture writeChunk(ByteBuf chunk) {
    return ctx.writeAndFlush(new DefaultHttpContent(chunk));
  }

  @Override
  void writeEnd() {
    boolean close = closesAfter() || version != HttpVersion.HTTP_1_1;
    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
        .addListener(written -> owner.answered(this, close));
  }

  @Override
  void abort(Throwable cause) {
    ctx.close(); // a chunked body cut short: the client sees the connection end without its last chunk
  }
}
