package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.rpcx.server.http.HttpHandler;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP/2 requests of one connection that are not gRPC, handed to the server's {@link
 * HttpHandler}: {@link GrpcServerHandler} passes each such stream's HEADERS and DATA here. A
 * request is read whole within the body limit, then answered as an {@link Http2Exchange}; one
 * over the limit is refused (413) and its stream reset, the connection and its other streams going
 * on. Event loop only.
 */
final class Http2Exchanges {
  private static final Logger logger = LoggerFactory.getLogger(Http2Exchanges.class);

  /** A request being read or answered. */
  private static final class Request {
    final Http2Headers headers;
    CompositeByteBuf body;
    Http2Exchange exchange;

    Request(Http2Headers headers) {
      this.headers = headers;
    }
  }

  private final GrpcServerHandler connection;
  private final HttpHandler handler;
  private final int maxRequestBytes;
  private final RequestDispatcher dispatcher;
  private final ServerConfig config;
  private final IntObjectMap<Request> requests = new IntObjectHashMap<>();

  Http2Exchanges(
      GrpcServerHandler connection,
      HttpHandler handler,
      int maxRequestBytes,
      RequestDispatcher dispatcher,
      ServerConfig config) {
    this.connection = connection;
    this.handler = handler;
    this.maxRequestBytes = maxRequestBytes;
    this.dispatcher = dispatcher;
    this.config = config;
  }

  /** Whether {@code streamId} carries a request of this HTTP side. */
  boolean owns(int streamId) {
    return requests.containsKey(streamId);
  }

  /** A new request stream's headers; {@code end}: it has no body. */
  void headers(ChannelHandlerContext ctx, int streamId, Http2Headers headers, boolean end) {
    Request request = new Request(headers);
    requests.put(streamId, request);
    CharSequence length = headers.get("content-length");
    long announced = length == null ? -1 : parseLength(length);
    if (announced > maxRequestBytes) {
      refuse(ctx, streamId, request, 413, tooLarge("announces a body of " + announced + " bytes"));
      return;
    }
    request.body = ctx.alloc().compositeBuffer();
    if (end) {
      complete(ctx, streamId, request);
    }
  }

  private static long parseLength(CharSequence length) {
    try {
      return Long.parseLong(length.toString().strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private String tooLarge(String what) {
    return "the request " + what + ", over the limit of " + maxRequestBytes + " bytes";
  }

  /** DATA of a request stream; returns the bytes processed (all of them: the body is held). */
  int data(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean end) {
    int bytes = data.readableBytes() + padding;
    Request request = requests.get(streamId);
    if (request == null || request.body == null) {
      return bytes; // answered already (refused): dropped
    }
    if (request.body.readableBytes() + (long) data.readableBytes() > maxRequestBytes) {
      refuse(ctx, streamId, request, 413,
          tooLarge("sends a body of more than " + maxRequestBytes + " bytes"));
      return bytes;
    }
    if (data.isReadable()) {
      request.body.addComponent(true, data.retain());
    }
    if (end) {
      complete(ctx, streamId, request);
    }
    return bytes;
  }

  /** The client's trailers: the request is whole. */
  void trailers(ChannelHandlerContext ctx, int streamId) {
    Request request = requests.get(streamId);
    if (request != null && request.body != null) {
      complete(ctx, streamId, request);
    }
  }

  private void complete(ChannelHandlerContext ctx, int streamId, Request request) {
    byte[] body = ByteBufUtil.getBytes(request.body);
    release(request);
    request.exchange = exchange(ctx, streamId, request.headers, body);
    try {
      handler.handle(request.exchange);
    } catch (RuntimeException e) {
      request.exchange.handlerFailed(handler, e);
    }
  }

  /** Refuses the request through the handler, then resets its stream if the client still sends. */
  private void refuse(ChannelHandlerContext ctx, int streamId, Request request, int status, String problem) {
    logger.debug("Refusing HTTP/2 stream {} from {}: {}", streamId, connection.remoteAddress(), problem);
    release(request);
    request.exchange = exchange(ctx, streamId, request.headers, new byte[0]);
    try {
      handler.refuse(request.exchange, status, problem);
    } catch (RuntimeException e) {
      request.exchange.handlerFailed(handler, e);
    }
    Http2Stream stream = connection.connection().stream(streamId);
    if (stream != null && stream.state().remoteSideOpen()) {
      ctx.executor().execute(() -> { // after the answer, which the event loop writes first
        Http2Stream open = connection.connection().stream(streamId);
        if (open != null && open.state().remoteSideOpen()) {
          connection.encoder().writeRstStream(ctx, streamId, Http2Error.CANCEL.code(), ctx.newPromise());
          connection.flush(ctx);
        }
      });
    }
  }

  private Http2Exchange exchange(
      ChannelHandlerContext ctx, int streamId, Http2Headers headers, byte[] body) {
    Map<String, String> named = new LinkedHashMap<>();
    for (Map.Entry<CharSequence, CharSequence> header : headers) {
      String name = header.getKey().toString();
      if (!name.startsWith(":")) {
        named.merge(name, header.getValue().toString(), (a, b) -> a + ", " + b);
      }
    }
    CharSequence method = headers.method();
    CharSequence path = headers.path();
    return new Http2Exchange(
        connection,
        ctx,
        streamId,
        method == null ? "" : method.toString(),
        path == null ? "" : path.toString(),
        Collections.unmodifiableMap(named),
        body,
        ctx.pipeline().get(SslHandler.class) != null,
        dispatcher,
        config);
  }

  private static void release(Request request) {
    if (request.body != null) {
      request.body.release();
      request.body = null;
    }
  }

  /** The client reset the stream: an answer being written stops. */
  void reset(int streamId) {
    Request request = requests.remove(streamId);
    if (request != null) {
      release(request);
      if (request.exchange != null) {
        request.exchange.clientGone();
      }
    }
  }

  /** The stream closed (answered, or reset either way). */
  void closed(int streamId) {
    reset(streamId);
  }

  /** The connection closed: every request goes. */
  void connectionLost() {
    for (Request request : requests.values()) {
      release(request);
      if (request.exchange != null) {
        request.exchange.clientGone();
      }
    }
    requests.clear();
  }
}
