package io.rpcx.client.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
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
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.EventExecutor;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.TlsFailures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client end of one gRPC connection in the pipeline: Netty's HTTP/2 codec, whose frames this
 * hands to the {@link GrpcClientStream} of their stream (kept as a property of the HTTP/2 stream)
 * and whose connection events go to its {@link GrpcConnection}. It writes the streams' frames for
 * them, on the event loop. A server that breaks HTTP/2 gets the connection closed with GOAWAY, and
 * the calls on it fail with the reason.
 */
final class GrpcClientHandler extends Http2ConnectionHandler implements Http2FrameListener {
  private static final Logger logger = LoggerFactory.getLogger(GrpcClientHandler.class);

  /** {@link #nextStreamId()} when the connection's stream ids are used up. */
  static final int NO_STREAM_IDS = -2;

  /**
   * Each stream's receive window: bytes the server may send on a stream before the client gives
   * them back, as its subscriber takes the messages (as RPCX's own gRPC side).
   */
  static final int STREAM_WINDOW = 1 << 20;
  /** The connection's receive window: room for several streams at their full window. */
  static final int CONNECTION_WINDOW = 16 << 20;
  /** The largest header list (response headers, trailers) accepted. */
  static final int MAX_HEADER_LIST_BYTES = 64 << 10;

  private final GrpcConnection connection;
  private final InboundMeter meter;
  private final Http2Connection.PropertyKey streamKey;
  private ChannelHandlerContext ctx;
  private boolean settingsReceived;

  private GrpcClientHandler(
      Http2ConnectionDecoder decoder,
      Http2ConnectionEncoder encoder,
      Http2Settings settings,
      GrpcConnection connection,
      InboundMeter meter) {
    super(decoder, encoder, settings);
    this.connection = connection;
    this.meter = meter;
    this.streamKey = connection().newKey();
    connection()
        .addListener(
            new Http2ConnectionAdapter() {
              @Override
              public void onStreamClosed(Http2Stream stream) {
                GrpcClientStream closed = stream.removeProperty(streamKey);
                if (closed != null) {
                  closed.onClosed();
                }
              }

              @Override
              public void onGoAwayReceived(int lastStreamId, long errorCode, ByteBuf debugData) {
                // Before Netty closes the streams after lastStreamId: they fail as not processed.
                connection.onGoAway(
                    lastStreamId, errorCode, debugData.toString(StandardCharsets.UTF_8));
              }
            });
  }

  /** The handler of {@code connection}, whose received messages are counted in {@code meter}. */
  static GrpcClientHandler create(GrpcConnection connection, InboundMeter meter) {
    return new Builder(connection, meter).build();
  }

  private static final class Builder
      extends AbstractHttp2ConnectionHandlerBuilder<GrpcClientHandler, Builder> {
    private final GrpcConnection connection;
    private final InboundMeter meter;

    Builder(GrpcConnection connection, InboundMeter meter) {
      this.connection = connection;
      this.meter = meter;
      server(false);
      // Closing is the connection's call: drained before, or now (its calls fail at once).
      gracefulShutdownTimeoutMillis(0);
      initialSettings(
          new Http2Settings()
              .pushEnabled(false)
              .initialWindowSize(STREAM_WINDOW)
              .maxHeaderListSize(MAX_HEADER_LIST_BYTES));
    }

    @Override
    protected GrpcClientHandler build() {
      return super.build();
    }

    @Override
    protected GrpcClientHandler build(
        Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
      GrpcClientHandler handler =
          new GrpcClientHandler(decoder, encoder, settings, connection, meter);
      frameListener(handler);
      return handler;
    }
  }

  // The channel.

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    this.ctx = ctx;
    connection.bind(ctx.channel());
    super.handlerAdded(ctx);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    super.channelActive(ctx); // the connection preface and SETTINGS
    // The connection's window, beyond the 64 KiB HTTP/2 starts with.
    Http2Stream whole = connection().connectionStream();
    int window = connection().local().flowController().windowSize(whole);
    connection().local().flowController().incrementWindowSize(whole, CONNECTION_WINDOW - window);
    ctx.flush();
    connection.onActive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    connection.onReadComplete(); // messages of a read cut short first
    connection.onInactive(); // the cause first: Netty closes the streams next
    super.channelInactive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    connection.onRead();
    try {
      super.channelRead(ctx, msg);
    } finally {
      meter.partial(connection.partialBytes());
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
    connection.onReadComplete();
    super.channelReadComplete(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof IdleStateEvent idle && idle.state() == IdleState.READER_IDLE) {
      connection.onReadIdle();
    } else if (event instanceof SslHandshakeCompletionEvent handshake) {
      if (!handshake.isSuccess()) {
        tlsFailed(handshake.cause());
      } else {
        String protocol = ctx.pipeline().get(SslHandler.class).applicationProtocol();
        if (!GrpcConnection.ALPN_H2.equals(protocol)) {
          logger.warn(
              "Closing connection to {}: it did not agree to HTTP/2 by ALPN ({})",
              connection.address(),
              protocol == null ? "no protocol chosen" : "chose '" + protocol + "'");
          connection.closeWith(
              UnavailableException.notProcessed(
                  connection.address() + " did not agree to HTTP/2 by ALPN ("
                      + (protocol == null ? "no protocol chosen" : "chose '" + protocol + "'")
                      + "): is it a gRPC server?"));
        }
      }
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
    if (TlsFailures.find(cause) != null) {
      tlsFailed(cause);
    } else if (cause instanceof IOException io && !(cause instanceof Http2Exception)) {
      logger.debug("Connection to {} failed: {}", connection.address(), cause.toString());
      connection.onIoFailure(io);
    } else {
      super.exceptionCaught(ctx, cause); // HTTP/2 errors: GOAWAY and close, or the stream reset
    }
  }

  private void tlsFailed(Throwable cause) {
    Throwable tls = TlsFailures.find(cause);
    String problem = CallFailures.describe(tls != null ? tls : cause);
    logger.warn("Closing connection to {}: TLS failed: {}", connection.address(), problem);
    connection.closeWith(
        UnavailableException.notProcessed(
            "TLS with " + connection.address() + " failed: " + problem, cause));
  }

  @Override
  protected void onConnectionError(
      ChannelHandlerContext ctx, boolean outbound, Throwable cause, Http2Exception http2) {
    if (!(cause instanceof IOException) || cause instanceof Http2Exception) {
      logger.warn(
          "Closing connection to {}: HTTP/2 failed: {}",
          connection.address(),
          String.valueOf(cause.getMessage()));
    }
    connection.onProtocolError(String.valueOf(cause.getMessage()));
    super.onConnectionError(ctx, outbound, cause, http2);
  }

  /**
   * A frame for a stream this side closed already (the server's frames still in flight after a
   * reset) is ignored, as HTTP/2 asks of the side that reset a stream, instead of answered with a
   * reset of its own per frame; other stream errors reset the stream, as Netty does.
   */
  @Override
  protected void onStreamError(
      ChannelHandlerContext ctx,
      boolean outbound,
      Throwable cause,
      Http2Exception.StreamException http2) {
    if (!outbound
        && http2.error() == Http2Error.STREAM_CLOSED
        && connection().stream(http2.streamId()) == null) {
      return;
    }
    super.onStreamError(ctx, outbound, cause, http2);
  }

  // Frames, on the event loop.

  private GrpcClientStream stream(int streamId) {
    Http2Stream stream = connection().stream(streamId);
    return stream == null ? null : stream.getProperty(streamKey);
  }

  @Override
  public void onHeadersRead(
      ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean end) {
    GrpcClientStream stream = stream(streamId);
    if (stream != null) {
      stream.onHeaders(headers, end);
    }
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
      boolean end) {
    onHeadersRead(ctx, streamId, headers, padding, end);
  }

  @Override
  public int onDataRead(
      ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean end) {
    GrpcClientStream stream = stream(streamId);
    if (stream == null) {
      return data.readableBytes() + padding; // a call that ended: its data is dropped
    }
    return stream.onData(data, padding, end);
  }

  @Override
  public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
    GrpcClientStream stream = stream(streamId);
    if (stream != null) {
      stream.onReset(errorCode);
    }
  }

  @Override
  public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
    if (!settingsReceived) {
      settingsReceived = true;
      connection.onHandshakeDone();
    }
  }

  @Override
  public void onSettingsAckRead(ChannelHandlerContext ctx) {}

  @Override
  public void onPingRead(ChannelHandlerContext ctx, long data) {} // Netty answers it

  @Override
  public void onPingAckRead(ChannelHandlerContext ctx, long data) {
    connection.onPingAck(data);
  }

  @Override
  public void onPriorityRead(
      ChannelHandlerContext ctx, int streamId, int dependency, short weight, boolean exclusive) {}

  @Override
  public void onPushPromiseRead(
      ChannelHandlerContext ctx, int streamId, int promisedStreamId, Http2Headers headers,
      int padding) {} // push is disabled: Netty refuses it

  @Override
  public void onGoAwayRead(
      ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {}

  @Override
  public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int increment) {}

  @Override
  public void onUnknownFrame(
      ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags, ByteBuf payload) {}

  // For the connection and its streams, on the event loop.

  /**
   * The id of a new stream, or -1 if the server's limit of concurrent streams is reached or it is
   * going away, or {@link #NO_STREAM_IDS}.
   */
  int nextStreamId() {
    Http2Connection.Endpoint<?> local = connection().local();
    if (connection().goAwayReceived() || !local.canOpenStream()) {
      return -1;
    }
    int id = local.incrementAndGetNextStreamId();
    return id < 0 ? NO_STREAM_IDS : id;
  }

  boolean goAwayReceived() {
    return connection().goAwayReceived();
  }

  /** The server's limit of concurrent streams. */
  int maxStreams() {
    return connection().local().maxActiveStreams();
  }

  /** Opens stream {@code id} with {@code headers}; the stream, or {@code null} if it failed. */
  Http2Stream writeHeaders(int id, Http2Headers headers, ChannelPromise promise) {
    encoder().writeHeaders(ctx, id, headers, 0, false, promise);
    return connection().stream(id);
  }

  void writeData(int id, ByteBuf data, boolean endOfStream, ChannelPromise promise) {
    encoder().writeData(ctx, id, data, 0, endOfStream, promise);
  }

  /** Makes {@code call} the call of {@code stream}: its frames go to it. */
  void attach(Http2Stream stream, GrpcClientStream call) {
    stream.setProperty(streamKey, call);
  }

  /** Resets {@code stream} with {@code error}; it closes at once. */
  void reset(Http2Stream stream, Http2Error error) {
    resetStream(ctx, stream.id(), error.code(), ctx.newPromise());
  }

  /** Gives {@code bytes} of {@code stream} back to its (and the connection's) receive window. */
  void consume(Http2Stream stream, int bytes) {
    try {
      decoder().flowController().consumeBytes(stream, bytes);
    } catch (Http2Exception e) {
      onError(ctx, false, e);
    }
  }

  /** Sends a PING carrying {@code data}, now. */
  void ping(long data) {
    encoder().writePing(ctx, false, data, ctx.newPromise());
    ctx.flush();
  }

  ChannelPromise newPromise() {
    return ctx.newPromise();
  }

  EventExecutor executor() {
    return ctx.executor();
  }
}
