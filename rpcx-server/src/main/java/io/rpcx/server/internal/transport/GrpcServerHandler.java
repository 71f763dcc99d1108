package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.ReadOnlyHttp2Headers;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.ScheduledFuture;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.grpc.GrpcElement;
import io.rpcx.core.internal.grpc.GrpcMessages;
import io.rpcx.core.internal.grpc.GrpcRequest;
import io.rpcx.core.internal.grpc.GrpcStatus;
import io.rpcx.core.internal.grpc.GrpcTimeout;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.SizeHints;
import io.rpcx.core.internal.protocol.ThrownException;
import io.rpcx.core.internal.stream.ReadArrivals;
import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.GrpcFraming;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.QueuedWrite;
import io.rpcx.core.internal.transport.TlsFailures;
import io.rpcx.core.internal.transport.WriteQueue;
import io.rpcx.server.http.HttpHandler;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.CancellableCall;
import io.rpcx.server.internal.dispatch.OpenStream;
import io.rpcx.server.internal.dispatch.Replies;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import io.rpcx.server.internal.dispatch.ServerConnection;
import io.rpcx.server.internal.dispatch.ServerMethod;
import io.rpcx.server.internal.dispatch.StreamOutput;
import io.rpcx.server.internal.grpc.GrpcHealth;
import io.rpcx.server.internal.grpc.GrpcReflection;
import io.rpcx.server.internal.grpc.GrpcRoutes;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server end of one gRPC connection (HTTP/2, docs/GRPC.md): Netty's HTTP/2 codec below, and
 * above it the same dispatcher, interceptors, limits and calls as RPCX's own protocol. Each request
 * stream becomes a {@link GrpcRequest} once its arguments are in ({@link GrpcServerStream});
 * replies go out as HEADERS, DATA (Length-Prefixed-Messages) and trailers carrying {@code
 * grpc-status}, written on the event loop in batches ({@link WriteQueue}). Writes made here are
 * flushed with {@code flush(ctx)}, through the codec, whose flow controller holds DATA until then
 * ({@code ctx.flush()} would pass it by and leave the DATA queued until the next read). Health and reflection
 * are answered here. A peer that breaks HTTP/2 loses its connection (GOAWAY); one that breaks gRPC
 * on a stream gets that stream's error, and the connection and its other streams go on.
 */
final class GrpcServerHandler extends Http2ConnectionHandler
    implements Http2FrameListener, ServerConnection, Replies, ServedConnection {
  private static final Logger logger = LoggerFactory.getLogger(GrpcServerHandler.class);

  private static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
  private static final AsciiString APPLICATION_GRPC = AsciiString.cached("application/grpc");
  private static final AsciiString GRPC_STATUS = AsciiString.cached("grpc-status");
  private static final AsciiString GRPC_MESSAGE = AsciiString.cached("grpc-message");
  private static final AsciiString GRPC_TIMEOUT = AsciiString.cached("grpc-timeout");
  private static final AsciiString GRPC_ENCODING = AsciiString.cached("grpc-encoding");
  private static final AsciiString GRPC_ACCEPT_ENCODING = AsciiString.cached("grpc-accept-encoding");
  private static final AsciiString EXCEPTION_CLASS = AsciiString.cached("rpcx-exception-class");
  private static final AsciiString TE = AsciiString.cached("te");
  private static final AsciiString ENCODINGS = AsciiString.cached("identity,gzip");
  private static final Http2Headers RESPONSE_HEADERS =
      ReadOnlyHttp2Headers.serverHeaders(
          false, HttpResponseStatus.OK.codeAsText(), CONTENT_TYPE, APPLICATION_GRPC,
          GRPC_ACCEPT_ENCODING, ENCODINGS);
  private static final Http2Headers OK_TRAILERS =
      ReadOnlyHttp2Headers.trailers(false, GRPC_STATUS, AsciiString.cached("0"));

  private final ServerTransport transport;
  private final RequestDispatcher dispatcher;
  /** What gRPC answers, or null where this port serves no gRPC (every request goes to {@link #http}). */
  private final GrpcRoutes routes;
  /** The requests that are not gRPC, for the server's HTTP handler; null where HTTP is off. */
  private final Http2Exchanges http;
  /** HTTP/2's receive window of each stream: 1 MiB, as grpc-java's. */
  private static final int STREAM_WINDOW = 1 << 20;
  /** The receive window of the whole connection. */
  private static final int CONNECTION_WINDOW = 4 * STREAM_WINDOW;

  private final int maxMessageSize;
  private final int maxMetadataBytes;
  private final CallsInFlight callsInFlight;
  private final Http2Connection.PropertyKey streamKey;
  /** The calls that stream, by stream id, from dispatch to their end. */
  private final Map<Integer, OpenStream> openStreams = new ConcurrentHashMap<>();
  /** The calls that are not streams, from dispatch to their end: what RST_STREAM cancels. */
  private final UnaryCalls unaryCalls = new UnaryCalls();
  /** The calls that received elements in the current read; event loop only. */
  private final ReadArrivals arrivals = new ReadArrivals();
  private InboundMeter meter;
  private ChannelHandlerContext ctx;
  private WriteQueue writes;
  private String remoteAddress = "?";
  private volatile String drainReason;
  private boolean overConnectionLimit;
  /**
   * Closes the connection if the client's SETTINGS (the end of HTTP/2's preface) does not come in
   * time; {@code null} once it came. Event loop only.
   */
  private ScheduledFuture<?> settingsTimeout;
  private final long prefaceTimeoutMillis;

  private GrpcServerHandler(
      Http2ConnectionDecoder decoder,
      Http2ConnectionEncoder encoder,
      Http2Settings settings,
      ServerTransport transport,
      RequestDispatcher dispatcher,
      GrpcRoutes routes,
      ServerConfig config,
      HttpHandler httpHandler,
      int maxRequestBytes) {
    super(decoder, encoder, settings);
    this.transport = transport;
    this.dispatcher = dispatcher;
    this.routes = routes;
    this.http =
        httpHandler == null
            ? null
            : new Http2Exchanges(this, httpHandler, maxRequestBytes, dispatcher, config);
    this.maxMessageSize = config.connection().maxFrameSize();
    this.maxMetadataBytes = config.maxMetadataBytes();
    this.prefaceTimeoutMillis = config.prefaceTimeout().toMillis();
    this.callsInFlight = new CallsInFlight(config.connection().maxConcurrentCallsPerConnection());
    this.streamKey = connection().newKey();
    connection()
        .addListener(
            new Http2ConnectionAdapter() {
              @Override
              public void onStreamClosed(Http2Stream stream) {
                if (http != null) {
                  http.closed(stream.id());
                }
                GrpcServerStream closed = stream.removeProperty(streamKey);
                if (closed != null) {
                  closed.ended = true;
                  closed.release();
                }
              }
            });
  }

  /**
   * Raises the connection's receive window from HTTP/2's 64 KiB to {@link #CONNECTION_WINDOW}, as
   * grpc-java does: a stream's elements give their bytes back only when delivered, so one slow
   * subscriber holds its stream's window, and the connection's must leave room for the others.
   */
  private void openConnectionWindow() {
    Http2Stream connectionStream = connection().connectionStream();
    int delta = CONNECTION_WINDOW - decoder().flowController().windowSize(connectionStream);
    if (delta > 0) {
      try {
        decoder().flowController().incrementWindowSize(connectionStream, delta);
      } catch (Http2Exception e) {
        throw new IllegalStateException(e); // the window is within HTTP/2's bounds
      }
      flush(ctx); // the WINDOW_UPDATE, right after the server's SETTINGS
    }
  }

  /**
   * The handler of a new connection of the server of {@code config}; {@code routes} null where the
   * port serves no gRPC, {@code httpHandler} null where it serves no HTTP.
   */
  static GrpcServerHandler create(
      ServerTransport transport,
      RequestDispatcher dispatcher,
      GrpcRoutes routes,
      ServerConfig config,
      InboundMeter meter,
      HttpHandler httpHandler,
      int maxRequestBytes) {
    GrpcServerHandler handler =
        new Builder(transport, dispatcher, routes, config, httpHandler, maxRequestBytes).build();
    handler.meter = meter;
    return handler;
  }

  private static Http2Settings settings(ServerConfig config) {
    return new Http2Settings()
        .maxConcurrentStreams(config.connection().maxConcurrentCallsPerConnection())
        // A header list larger than the metadata RPCX takes, and its pseudo-headers, is refused by
        // the codec before it is kept (HPACK bombs).
        .maxHeaderListSize(config.maxMetadataBytes() + 4096L)
        .initialWindowSize(STREAM_WINDOW);
  }

  /** Builds the handler: Netty's HTTP/2 codec with this as its frame listener. */
  private static final class Builder
      extends AbstractHttp2ConnectionHandlerBuilder<GrpcServerHandler, Builder> {
    private final ServerTransport transport;
    private final RequestDispatcher dispatcher;
    private final GrpcRoutes routes;
    private final ServerConfig config;
    private final HttpHandler httpHandler;
    private final int maxRequestBytes;

    Builder(
        ServerTransport transport,
        RequestDispatcher dispatcher,
        GrpcRoutes routes,
        ServerConfig config,
        HttpHandler httpHandler,
        int maxRequestBytes) {
      this.transport = transport;
      this.dispatcher = dispatcher;
      this.routes = routes;
      this.config = config;
      this.httpHandler = httpHandler;
      this.maxRequestBytes = maxRequestBytes;
      server(true);
      // CVE-2023-44487: a flood of streams opened and reset at once closes the connection.
      decoderEnforceMaxRstFramesPerWindow(200, 30);
      gracefulShutdownTimeoutMillis(config.shutdownGracePeriod().toMillis());
      initialSettings(settings(config));
    }

    @Override
    protected GrpcServerHandler build() {
      return super.build();
    }

    @Override
    protected GrpcServerHandler build(
        Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
      GrpcServerHandler handler =
          new GrpcServerHandler(
              decoder, encoder, settings, transport, dispatcher, routes, config, httpHandler,
              maxRequestBytes);
      frameListener(handler);
      return handler;
    }
  }

  // The channel.

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    this.ctx = ctx;
    this.writes = new WriteQueue(ctx.channel(), true);
    this.remoteAddress = String.valueOf(ctx.channel().remoteAddress());
    transport.connectionServed(ctx.channel(), this);
    super.handlerAdded(ctx);
    openConnectionWindow();
    // The first bytes of HTTP/2's preface chose this protocol; the connection has spoken it (and
    // leaves the handshaking ones) with its SETTINGS, which must come within the preface timeout.
    long timeoutMillis = prefaceTimeoutMillis;
    settingsTimeout =
        ctx.executor()
            .schedule(
                () -> {
                  logger.warn(
                      "Closing connection from {}: no HTTP/2 SETTINGS within {} ms",
                      remoteAddress,
                      timeoutMillis);
                  ctx.close();
                },
                timeoutMillis,
                TimeUnit.MILLISECONDS);
    String shuttingDown = transport.goAwayReason();
    if (shuttingDown != null) {
      goAway(StatusCode.OK, shuttingDown);
    }
  }

  /** The client's first SETTINGS: the whole HTTP/2 preface arrived, the connection spoke. */
  private void spoke() {
    settingsTimeout.cancel(false);
    settingsTimeout = null;
    overConnectionLimit = !transport.connectionSpoke(ctx.channel());
    if (overConnectionLimit) {
      transport.logRefusal(
          remoteAddress,
          (transport.connectionCount() - 1) + " connections are open (limit maxConnections "
              + transport.maxConnections() + ")");
      goAway(StatusCode.RESOURCE_EXHAUSTED,
          "the server has too many connections (limit " + transport.maxConnections() + ")");
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    arrivals.readComplete();
    if (settingsTimeout != null) {
      settingsTimeout.cancel(false);
    }
    transport.connectionGone(this);
    unaryCalls.cancelAll("the client's connection closed");
    if (http != null) {
      http.connectionLost();
    }
    for (OpenStream stream : openStreams.values()) {
      stream.connectionLost();
    }
    super.channelInactive(ctx);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
    arrivals.readComplete();
    super.channelReadComplete(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof IdleStateEvent idle
        && idle.state() == IdleState.READER_IDLE
        && connection().numActiveStreams() == 0) {
      logger.debug("Closing gRPC connection from {}: idle", remoteAddress);
      ctx.channel().close(); // through the codec: GOAWAY first
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
    if (Http2CodecUtil.getEmbeddedHttp2Exception(cause) != null) {
      super.exceptionCaught(ctx, cause); // the codec's: GOAWAY with its error
      return;
    }
    SSLException tls = TlsFailures.find(cause);
    if (tls != null) {
      logger.warn("Closing gRPC connection from {}: TLS failed: {}", remoteAddress, tls.getMessage());
    } else if (cause instanceof IOException) {
      logger.debug("gRPC connection from {} failed: {}", remoteAddress, cause.toString());
    } else {
      logger.warn("gRPC connection from {} failed; closing it", remoteAddress, cause);
    }
    ctx.close();
  }

  @Override
  protected void onConnectionError(
      ChannelHandlerContext ctx, boolean outbound, Throwable cause, Http2Exception http2) {
    if (!(cause instanceof IOException)) {
      logger.warn(
          "Closing gRPC connection from {}: {}", remoteAddress, String.valueOf(cause.getMessage()));
    }
    super.onConnectionError(ctx, outbound, cause, http2);
  }

  // Requests, on the event loop.

  @Override
  public void onHeadersRead(
      ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean end)
      throws Http2Exception {
    if (http != null && http.owns(streamId)) {
      if (end) { // the client's trailers
        http.trailers(ctx, streamId);
      }
      return;
    }
    Http2Stream stream = connection().stream(streamId);
    GrpcServerStream known = stream == null ? null : stream.getProperty(streamKey);
    if (known != null) {
      if (end) { // the client's trailers: it sends no more
        halfClosed(known);
      }
      return;
    }
    long receivedNanos = System.nanoTime();
    CharSequence contentType = headers.get(CONTENT_TYPE);
    if (http != null && (routes == null || !isGrpc(contentType))) {
      http.headers(ctx, streamId, headers, end); // not gRPC: the server's HTTP side answers
      return;
    }
    if (contentType == null || !AsciiString.regionMatches(contentType, false, 0, APPLICATION_GRPC, 0, 16)) {
      // The gRPC spec's answer to a request that is not gRPC: 415, as plain HTTP.
      encoder()
          .writeHeaders(
              ctx,
              streamId,
              new DefaultHttp2Headers()
                  .status(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE.codeAsText())
                  .set(GRPC_STATUS, Integer.toString(GrpcStatus.INTERNAL))
                  .set(GRPC_MESSAGE, GrpcStatus.encodeMessage(
                      "content-type '" + contentType + "' is not application/grpc")),
              0,
              true,
              ctx.newPromise());
      flush(ctx);
      return;
    }
    if (!isPost(headers)) {
      trailersOnly(ctx, streamId, GrpcStatus.UNIMPLEMENTED, "gRPC calls are POST requests");
      return;
    }
    CharSequence path = headers.path();
    GrpcServerStream.Kind kind = GrpcServerStream.Kind.CALL;
    GrpcRoutes.Route route = null;
    MethodModel model = null;
    String pathText = path == null ? "" : path.toString();
    if (routes.health() != null && (pathText.equals(GrpcHealth.CHECK) || pathText.equals(GrpcHealth.WATCH))) {
      kind = pathText.equals(GrpcHealth.CHECK)
          ? GrpcServerStream.Kind.HEALTH_CHECK
          : GrpcServerStream.Kind.HEALTH_WATCH;
    } else if (routes.reflection() != null
        && (pathText.equals(GrpcReflection.V1) || pathText.equals(GrpcReflection.V1_ALPHA))) {
      kind = GrpcServerStream.Kind.REFLECTION;
    } else {
      route = routes.route(pathText);
      model = route == null ? null : dispatcher.model(route.service(), route.method());
      if (model == null) {
        trailersOnly(
            ctx, streamId, GrpcStatus.UNIMPLEMENTED,
            "Method not found: " + (pathText.startsWith("/") ? pathText.substring(1) : pathText));
        return;
      }
    }
    CharSequence encoding = headers.get(GRPC_ENCODING);
    boolean gzip = false;
    if (encoding != null && !AsciiString.contentEquals(encoding, "identity")) {
      if (!AsciiString.contentEquals(encoding, "gzip")) {
        trailersOnly(ctx, streamId, GrpcStatus.UNIMPLEMENTED,
            "grpc-encoding '" + encoding + "' is not supported (identity, gzip)");
        return;
      }
      gzip = true;
    }
    int timeoutMillis = 0;
    CharSequence timeout = headers.get(GRPC_TIMEOUT);
    if (timeout != null) {
      long millis = GrpcTimeout.parseMillis(timeout);
      if (millis < 0) {
        trailersOnly(ctx, streamId, GrpcStatus.INVALID_ARGUMENT,
            "grpc-timeout '" + timeout + "' is not a valid timeout");
        return;
      }
      timeoutMillis = (int) Math.min(Integer.MAX_VALUE, millis);
    }
    Map<String, String> metadata = metadata(headers);
    if (metadata == null) {
      trailersOnly(ctx, streamId, GrpcStatus.RESOURCE_EXHAUSTED,
          "request metadata exceeds " + maxMetadataBytes + " bytes");
      return;
    }
    GrpcServerStream call =
        new GrpcServerStream(
            streamId, kind, route, model, metadata, timeoutMillis, receivedNanos,
            new GrpcFraming.Deframer(ctx.alloc(), maxMessageSize, gzip));
    stream.setProperty(streamKey, call);
    if (kind == GrpcServerStream.Kind.REFLECTION) {
      call.reflection = routes.reflection().exchange(pathText.equals(GrpcReflection.V1_ALPHA));
    } else if (call.clientStreams() && !GrpcMessages.streamStartsWithArguments(model)) {
      dispatch(call, null);
    }
    if (end) {
      halfClosed(call);
    }
  }

  private static boolean isGrpc(CharSequence contentType) {
    return contentType != null
        && AsciiString.regionMatches(contentType, false, 0, APPLICATION_GRPC, 0, 16);
  }

  private static boolean isPost(Http2Headers headers) {
    CharSequence method = headers.method();
    return method != null && AsciiString.contentEquals(method, "POST");
  }

  /** The request's metadata: its headers but the pseudo and gRPC ones; null when over the limit. */
  private Map<String, String> metadata(Http2Headers headers) {
    Map<String, String> metadata = null;
    int bytes = 0;
    for (Map.Entry<CharSequence, CharSequence> header : headers) {
      CharSequence name = header.getKey();
      if (name.length() == 0
          || name.charAt(0) == ':'
          || AsciiString.contentEquals(name, CONTENT_TYPE)
          || AsciiString.contentEquals(name, TE)
          || AsciiString.regionMatches(name, false, 0, "grpc-", 0, 5)) {
        continue;
      }
      bytes += name.length() + header.getValue().length();
      if (bytes > maxMetadataBytes) {
        return null;
      }
      if (metadata == null) {
        metadata = new HashMap<>();
      }
      metadata.put(name.toString(), header.getValue().toString());
    }
    return metadata == null ? Map.of() : java.util.Collections.unmodifiableMap(metadata);
  }

  @Override
  public void onHeadersRead(
      ChannelHandlerContext ctx,
      int streamId,
      Http2Headers headers,
      int streamDependency,
      short weight,
      boolean exclusive,
      int padding,
      boolean end)
      throws Http2Exception {
    onHeadersRead(ctx, streamId, headers, padding, end);
  }

  @Override
  public int onDataRead(
      ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean end)
      throws Http2Exception {
    if (http != null && http.owns(streamId)) {
      return http.data(ctx, streamId, data, padding, end);
    }
    int bytes = data.readableBytes() + padding;
    Http2Stream stream = connection().stream(streamId);
    GrpcServerStream call = stream == null ? null : stream.getProperty(streamKey);
    if (call == null || call.ended) {
      return bytes; // a stream that was answered already: its data is dropped
    }
    call.deframer.add(data);
    // A stream's elements give their window back when delivered; everything else at once.
    int processed = call.clientStreams() ? padding : bytes;
    try {
      ByteBuf message;
      while ((message = call.deframer.next()) != null) {
        int wireSize = call.deframer.lastWireSize();
        message(call, message, wireSize, call.clientStreams());
      }
    } catch (GrpcFraming.MessageException e) {
      fail(
          call,
          e.isOverLimit() ? GrpcStatus.RESOURCE_EXHAUSTED : GrpcStatus.INTERNAL,
          e.getMessage());
      return bytes;
    }
    if (end) {
      halfClosed(call);
    }
    return processed;
  }

  /** One whole request message of {@code call}. */
  private void message(GrpcServerStream call, ByteBuf message, int wireSize, boolean flowed) {
    switch (call.kind) {
      case HEALTH_CHECK, HEALTH_WATCH -> {
        String service;
        try {
          service = GrpcHealth.requestedService(new NettyPayload(message).input(0, message.readableBytes()));
        } catch (IOException e) {
          fail(call, GrpcStatus.INVALID_ARGUMENT, "malformed HealthCheckRequest: " + e.getMessage());
          return;
        } finally {
          message.release();
        }
        health(call, service);
      }
      case REFLECTION -> {
        byte[] answer;
        try {
          byte[] request = new byte[message.readableBytes()];
          message.readBytes(request);
          answer = call.reflection.answer(request);
        } catch (IOException e) {
          fail(call, GrpcStatus.INVALID_ARGUMENT,
              "malformed ServerReflectionRequest: " + e.getMessage());
          return;
        } finally {
          message.release();
        }
        writeMessage(call, Unpooled.wrappedBuffer(prefix(answer.length), answer));
        flush(ctx);
      }
      case CALL -> {
        if (!call.dispatched) {
          if (call.firstMessage != null) {
            message.release();
            fail(call, GrpcStatus.INTERNAL,
                "Too many requests: " + call.route.method() + " takes one request message");
            return;
          }
          if (flowed) {
            consume(call, wireSize);
          }
          if (call.clientStreams()) {
            dispatch(call, message); // its other arguments; the elements follow
          } else {
            call.firstMessage = message; // dispatched when the client half-closes
          }
          return;
        }
        if (!call.clientStreams()) {
          message.release();
          fail(call, GrpcStatus.INTERNAL, "Too many requests: " + call.route.method()
              + " takes one request message");
          return;
        }
        call.held.add(new GrpcServerStream.Held(message, wireSize));
        deliver(call);
      }
      default -> message.release();
    }
  }

  /** Hands the call's receiver the elements its credit allows. */
  private void deliver(GrpcServerStream call) {
    OpenStream open = call.open;
    StreamReceiver receiver = open == null ? null : open.receiver();
    if (receiver == null) {
      return;
    }
    boolean kept = false;
    GrpcServerStream.Held element;
    while (call.credit > 0 && (element = call.held.poll()) != null) {
      call.credit--;
      consume(call, element.windowBytes());
      kept |=
          receiver.message(
              new GrpcElement(
                  new NettyPayload(element.message(), meter),
                  call.model.streamParameterIndex() + 1));
    }
    if (kept) {
      arrivals.add(receiver);
    }
    if (call.halfClosed && call.held.isEmpty() && call.dispatched) {
      receiver.finish(null);
    }
  }

  private void consume(GrpcServerStream call, int bytes) {
    Http2Stream stream = connection().stream(call.id);
    if (stream == null || bytes == 0) {
      return;
    }
    try {
      decoder().flowController().consumeBytes(stream, bytes);
    } catch (Http2Exception e) {
      onError(ctx, false, e);
    }
  }

  /** The client sent END_STREAM: a unary or server-stream call has its request. */
  private void halfClosed(GrpcServerStream call) {
    if (call.halfClosed) {
      return;
    }
    call.halfClosed = true;
    if (call.deframer.hasPartialMessage()) {
      fail(call, GrpcStatus.INTERNAL, "the request stream ended in the middle of a message");
      return;
    }
    switch (call.kind) {
      case CALL -> {
        if (call.clientStreams()) {
          if (!call.dispatched) {
            fail(call, GrpcStatus.INTERNAL,
                "Half-closed without a request: the first message holds the arguments of "
                    + call.route.method());
          } else {
            deliver(call);
          }
          return;
        }
        ByteBuf first = call.firstMessage;
        if (first == null) {
          fail(call, GrpcStatus.INTERNAL, "Half-closed without a request");
          return;
        }
        call.firstMessage = null;
        dispatch(call, first);
      }
      case REFLECTION -> {
        if (!call.ended) {
          writeTrailers(call, OK_TRAILERS);
          flush(ctx);
        }
      }
      default -> {}
    }
  }

  private void dispatch(GrpcServerStream call, ByteBuf message) {
    call.dispatched = true;
    dispatcher.dispatch(
        this,
        new GrpcRequest(
            call.id,
            call.route.service(),
            call.route.method(),
            call.metadata,
            call.timeoutMillis,
            message == null ? null : new NettyPayload(message, meter)),
        call.receivedNanos);
  }

  private void health(GrpcServerStream call, String service) {
    GrpcHealth health = routes.health();
    int status = health.status(service);
    if (call.kind == GrpcServerStream.Kind.HEALTH_CHECK) {
      if (status == GrpcHealth.SERVICE_UNKNOWN) {
        fail(call, GrpcStatus.NOT_FOUND, "unknown service '" + service + "'");
        return;
      }
      writeMessage(call, healthMessage(status));
      writeTrailers(call, OK_TRAILERS);
      flush(ctx);
      return;
    }
    int[] last = {-1};
    call.unwatch =
        health.watch(
            service,
            now ->
                ctx.executor()
                    .execute(
                        () -> {
                          if (!call.ended && now != last[0]) {
                            last[0] = now;
                            writeMessage(call, healthMessage(now));
                            flush(ctx);
                          }
                        }));
  }

  private static ByteBuf healthMessage(int status) {
    byte[] response = GrpcHealth.response(status);
    return Unpooled.wrappedBuffer(prefix(response.length), response);
  }

  private static byte[] prefix(int length) {
    return new byte[] {0, (byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8),
      (byte) length};
  }

  @Override
  public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
    if (http != null) {
      http.reset(streamId);
    }
    Http2Stream stream = connection().stream(streamId);
    GrpcServerStream call = stream == null ? null : stream.getProperty(streamKey);
    if (call == null || call.ended) {
      return; // answered already: nothing to cancel
    }
    call.ended = true;
    String reason = "the client cancelled the call (RST_STREAM " + Http2Error.valueOf(errorCode) + ")";
    OpenStream open = openStreams.get(streamId);
    if (open != null) {
      open.cancelledByClient(reason);
    } else {
      unaryCalls.cancel(streamId, reason);
    }
  }

  @Override
  public void onPriorityRead(
      ChannelHandlerContext ctx, int streamId, int dependency, short weight, boolean exclusive) {}

  @Override
  public void onSettingsAckRead(ChannelHandlerContext ctx) {}

  @Override
  public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
    if (settingsTimeout != null) {
      spoke();
    }
  }

  @Override
  public void onPingRead(ChannelHandlerContext ctx, long data) {}

  @Override
  public void onPingAckRead(ChannelHandlerContext ctx, long data) {}

  @Override
  public void onPushPromiseRead(
      ChannelHandlerContext ctx, int streamId, int promisedStreamId, Http2Headers headers,
      int padding) {}

  @Override
  public void onGoAwayRead(
      ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
    if (drainReason == null) {
      drainReason = "the client sent GOAWAY, promising no more calls on this connection";
    }
  }

  @Override
  public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int increment) {}

  @Override
  public void onUnknownFrame(
      ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags, ByteBuf payload) {}

  // Answers: from any thread, written on the event loop.

  /** Writes {@code message} (prefixed) on {@code call}'s stream, its headers first. Event loop. */
  private void writeMessage(GrpcServerStream call, ByteBuf message) {
    writeMessage(call, message, ctx.newPromise());
  }

  private void writeMessage(GrpcServerStream call, ByteBuf message, ChannelPromise promise) {
    if (call.ended) {
      message.release();
      promise.setFailure(new IOException("the stream has ended"));
      return;
    }
    if (!call.headersSent) {
      call.headersSent = true;
      encoder().writeHeaders(ctx, call.id, RESPONSE_HEADERS, 0, false, ctx.newPromise());
    }
    encoder().writeData(ctx, call.id, message, 0, false, promise);
  }

  /** Ends {@code call}'s stream with {@code trailers}, as a trailers-only response if need be. */
  private void writeTrailers(GrpcServerStream call, Http2Headers trailers) {
    if (call.ended) {
      return;
    }
    call.ended = true;
    Http2Headers last = trailers;
    if (!call.headersSent) {
      call.headersSent = true;
      last =
          new DefaultHttp2Headers()
              .status(HttpResponseStatus.OK.codeAsText())
              .set(CONTENT_TYPE, APPLICATION_GRPC);
      last.add(trailers);
    }
    encoder().writeHeaders(ctx, call.id, last, 0, true, ctx.newPromise());
  }

  private static Http2Headers trailers(int code, String message, String exceptionClass) {
    Http2Headers trailers = new DefaultHttp2Headers().set(GRPC_STATUS, Integer.toString(code));
    if (!message.isEmpty()) {
      trailers.set(GRPC_MESSAGE, GrpcStatus.encodeMessage(message));
    }
    if (!exceptionClass.isEmpty()) {
      trailers.set(EXCEPTION_CLASS, exceptionClass);
    }
    return trailers;
  }

  /** Ends a stream that never reached a call with {@code code}; event loop. */
  private void trailersOnly(ChannelHandlerContext ctx, int streamId, int code, String message) {
    Http2Headers headers =
        new DefaultHttp2Headers()
            .status(HttpResponseStatus.OK.codeAsText())
            .set(CONTENT_TYPE, APPLICATION_GRPC)
            .set(GRPC_STATUS, Integer.toString(code))
            .set(GRPC_MESSAGE, GrpcStatus.encodeMessage(message));
    encoder().writeHeaders(ctx, streamId, headers, 0, true, ctx.newPromise());
    flush(ctx);
  }

  /** Ends {@code call}, which broke gRPC, with {@code code}; a dispatched call is cancelled. */
  private void fail(GrpcServerStream call, int code, String message) {
    logger.debug("gRPC stream {} from {}: {}", call.id, remoteAddress, message);
    OpenStream open = openStreams.get(call.id);
    if (open != null) {
      open.cancelledByClient(message);
    } else {
      unaryCalls.cancel(call.id, message);
    }
    writeTrailers(call, trailers(code, message, ""));
    Http2Stream stream = connection().stream(call.id);
    if (stream != null && stream.state().remoteSideOpen()) {
      // It may go on sending: tell it to stop, the call being over.
      encoder().writeRstStream(ctx, call.id, Http2Error.CANCEL.code(), ctx.newPromise());
    }
    flush(ctx);
  }

  /** {@code task} on the event loop with {@code streamId}'s stream, if it is still there. */
  private void onStream(int streamId, java.util.function.Consumer<GrpcServerStream> task) {
    onStream(streamId, task, () -> {});
  }

  /**
   * Runs {@code task} on the event loop with stream {@code streamId}'s call, or {@code dropped} if
   * the stream is gone by then (reset, closed) or the write is aborted: what {@code task} would
   * have written (a message's buffer) is released there.
   */
  private void onStream(
      int streamId, java.util.function.Consumer<GrpcServerStream> task, Runnable dropped) {
    writes.enqueue(
        new QueuedWrite() {
          @Override
          public void writeTo(Channel channel) {
            Http2Stream stream = connection().stream(streamId);
            GrpcServerStream call = stream == null ? null : stream.getProperty(streamKey);
            if (call != null) {
              task.accept(call);
            } else {
              dropped.run();
            }
          }

          @Override
          public void abort(Throwable cause) {
            dropped.run();
          }
        });
  }

  @Override
  public Replies replies() {
    return this;
  }

  @Override
  public void sendValue(int requestId, ServerMethod method, Object value) throws CodecException {
    ByteBuf message = encode(method, value, method.sizeHints());
    if (message == null) {
      sendError(
          requestId,
          StatusCode.RESOURCE_EXHAUSTED,
          "the reply is over the message limit of " + maxMessageSize + " bytes",
          null);
      return;
    }
    writes.enqueue(
        new QueuedWrite() {
          @Override
          public void writeTo(Channel channel) {
            Http2Stream stream = connection().stream(requestId);
            GrpcServerStream call = stream == null ? null : stream.getProperty(streamKey);
            if (call == null || call.ended) {
              message.release(); // reset by the client meanwhile
              return;
            }
            writeMessage(call, message);
            writeTrailers(call, OK_TRAILERS);
          }

          @Override
          public void abort(Throwable cause) {
            message.release();
          }
        });
  }

  /** {@code value} as a reply message, or null if it is over the limit. */
  private ByteBuf encode(ServerMethod method, Object value, SizeHints hints)
      throws CodecException {
    try {
      ByteBuf message =
          GrpcFraming.encode(
              ctx.alloc(),
              hints.reply(),
              maxMessageSize,
              out ->
                  io.rpcx.core.internal.codec.Values.write(
                      out, method.model().resultCodec(), value));
      hints.reply(GrpcFraming.messageSize(message));
      return message;
    } catch (FrameOverLimitException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      throw e instanceof CodecException
          ? (CodecException) e
          : new CodecException(String.valueOf(e.getMessage()), e);
    }
  }

  @Override
  public void sendError(int requestId, StatusCode code, String message, ThrownException thrown) {
    Http2Headers trailers = trailers(GrpcStatus.of(code), message, className(thrown));
    onStream(requestId, call -> writeTrailers(call, trailers));
  }

  /**
   * The class a failure names in its {@code rpcx-exception-class} trailer, or {@code ""}. gRPC
   * carries no more of it: a declared exception's fields and the server's stack trace are RPCX's.
   */
  private static String className(ThrownException thrown) {
    return thrown == null ? "" : thrown.className();
  }

  @Override
  public StreamOutput streamOutput(int streamId, ServerMethod method) {
    return new StreamOutput() {
      @Override
      public boolean message(Object value) throws CodecException {
        ByteBuf message = encode(method, value, method.sizeHints());
        if (message == null) {
          return false;
        }
        onStream(
            streamId,
            call -> {
              ChannelPromise written = ctx.newPromise();
              writeMessage(call, message, written);
              // HTTP/2's flow control paces the stream: one more message for each one written.
              written.addListener(
                  future -> {
                    OpenStream open = openStreams.get(streamId);
                    if (future.isSuccess() && open != null && open.sender() != null) {
                      open.sender().credit(1);
                    }
                  });
            },
            message::release); // the client reset the stream before the message's turn came
        return true;
      }

      @Override
      public void end(StatusCode code, String message, ThrownException thrown) {
        Http2Headers trailers =
            code == null ? OK_TRAILERS : trailers(GrpcStatus.of(code), message, className(thrown));
        onStream(streamId, call -> writeTrailers(call, trailers));
      }
    };
  }

  @Override
  public void sendStreamCredit(int streamId, int messages) {
    ctx.executor()
        .execute(
            () -> {
              Http2Stream stream = connection().stream(streamId);
              GrpcServerStream call = stream == null ? null : stream.getProperty(streamKey);
              if (call != null) {
                call.credit += Integer.toUnsignedLong(messages);
                deliver(call);
                arrivals.readComplete(); // not in a read: hand them on now
              }
            });
  }

  // ServerConnection, for the dispatcher.

  @Override
  public void callStarted(CancellableCall call) {
    unaryCalls.started(call);
  }

  @Override
  public void callEnded(CancellableCall call) {
    unaryCalls.ended(call);
  }

  @Override
  public void streamOpened(OpenStream stream) {
    openStreams.put(stream.streamId(), stream);
    ctx.executor()
        .execute(
            () -> {
              Http2Stream http2 = connection().stream(stream.streamId());
              GrpcServerStream call = http2 == null ? null : http2.getProperty(streamKey);
              if (call != null) {
                call.open = stream;
                deliver(call); // what arrived, and credit given, before the stream was open
                arrivals.readComplete(); // not in a read: hand them on now
              }
            });
  }

  @Override
  public void streamEnded(OpenStream stream) {
    openStreams.remove(stream.streamId(), stream);
  }

  @Override
  public boolean isStreamOpen(int streamId) {
    return openStreams.containsKey(streamId);
  }

  @Override
  public Future<?> schedule(Runnable task, long delayNanos) {
    return ctx.executor().schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
  }

  @Override
  public PeerSchemas peerSchemas() {
    return null; // gRPC clients send no SCHEMA: arguments are read with the server's numbering
  }

  @Override
  public String drainReason() {
    return drainReason;
  }

  @Override
  public boolean tryStartCall() {
    return callsInFlight.tryStart();
  }

  @Override
  public void callAnswered() {
    callsInFlight.answered();
  }

  @Override
  public void callFinished() {
    callsInFlight.finish();
  }

  @Override
  public int maxConcurrentCalls() {
    return callsInFlight.limit();
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public void reset() {
    // Behind what is queued on the event loop, which is written first.
    ctx.executor().execute(() -> ServedConnection.resetNow(ctx.channel()));
  }

  @Override
  public void closeForProtocolError(StatusCode code, String problem) {
    ctx.executor()
        .execute(
            () -> {
              logger.warn("Closing gRPC connection from {}: {}", remoteAddress, problem);
              goAway(
                  ctx,
                  connection().remote().lastStreamCreated(),
                  Http2Error.PROTOCOL_ERROR.code(),
                  Unpooled.copiedBuffer(problem, java.nio.charset.StandardCharsets.UTF_8),
                  ctx.newPromise());
              flush(ctx);
              ctx.close();
            });
  }

  // ServedConnection, for the transport.

  @Override
  public void goAway(StatusCode code, String reason) {
    drainReason = reason;
    ctx.executor()
        .execute(
            () -> {
              // Graceful: GOAWAY now, the channel closes once its streams have ended (or the
              // shutdown's grace period is over). A health watch would never end by itself: it
              // has told its client NOT_SERVING (the server stops serving before GOAWAY), and
              // ends now so that the connection closes as soon as the calls are done.
              endHealthWatches(reason);
              if (ctx.channel().isActive()) {
                // Through the codec's close (ctx.close() would pass it by and cut the streams).
                ctx.channel().close();
              }
            });
  }

  /**
   * Ends UNAVAILABLE, saying {@code reason}, every call of the connection that is not one of its
   * open streams (a unary call, a health check or watch, a reflection request): the connection is
   * closing now. Event loop only.
   */
  private void endUnaryCalls(String reason) {
    try {
      connection()
          .forEachActiveStream(
              stream -> {
                GrpcServerStream call = stream.getProperty(streamKey);
                if (call != null && !openStreams.containsKey(call.id)) {
                  writeTrailers(call, trailers(GrpcStatus.UNAVAILABLE, reason, ""));
                }
                return true;
              });
    } catch (Http2Exception e) {
      throw new IllegalStateException(e); // the visitor throws nothing
    }
    flush(ctx);
  }

  private void endHealthWatches(String reason) {
    try {
      connection()
          .forEachActiveStream(
              stream -> {
                GrpcServerStream call = stream.getProperty(streamKey);
                if (call != null && call.kind == GrpcServerStream.Kind.HEALTH_WATCH) {
                  writeTrailers(call, trailers(GrpcStatus.UNAVAILABLE, reason, ""));
                }
                return true;
              });
    } catch (Http2Exception e) {
      throw new IllegalStateException(e); // the visitor throws nothing
    }
    flush(ctx);
  }

  /** HTTP/2's GOAWAY says no more: gRPC clients reconnect after any, as the server stays. */
  @Override
  public void retire(String reason) {
    goAway(StatusCode.OK, reason);
  }

  @Override
  public ChannelFuture close(String reason) {
    unaryCalls.cancelAll(reason); // their replies could not be sent any more: they end here
    if (ctx.executor().inEventLoop()) {
      endUnaryCalls(reason);
    } else {
      ctx.executor().execute(() -> endUnaryCalls(reason)); // before the close queued below
    }
    if (openStreams.isEmpty()) {
      return ctx.channel().close();
    }
    for (OpenStream stream : openStreams.values()) {
      stream.shutDown(reason);
    }
    ChannelFuture closed = ctx.channel().closeFuture();
    writes.enqueue(
        new QueuedWrite() {
          @Override
          public void writeTo(Channel channel) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
          }

          @Override
          public void abort(Throwable cause) {}
        });
    return closed;
  }
}
