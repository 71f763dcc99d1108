package io.rpcx.server.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.transport.FrameDecoder;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.TlsHandlers;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import io.rpcx.server.internal.dispatch.ConnectionSide;
import io.rpcx.server.internal.grpc.GrpcRoutes;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline of one accepted connection, in the order bytes arrive: {@code budget} (the server's
 * {@link InboundMeter}), {@code tls} (with TLS), and, once the first bytes tell the protocols apart
 * ({@link ProtocolSelector}, when the port serves more than RPCX): for RPCX, {@code preface} (the
 * RPCX handshake), {@code idle} (closing idle connections), {@code frames} (framing, checked
 * against the frame limit) and {@code connection} ({@link ServerConnectionHandler}); for HTTP/2,
 * {@code idle} and {@code grpc} ({@link GrpcServerHandler}: Netty's HTTP/2 codec, the gRPC calls
 * above it, and the other requests for the HTTP side); for HTTP/1.x, {@code codec} (Netty's {@code
 * HttpServerCodec}), {@code idle} and {@code http} ({@link Http1ServerHandler}). With a maximum
 * connection age, each connection's {@link ConnectionAge} timer starts once its protocol is known.
 * A port of the HTTP side alone serves the two HTTP versions and nothing else.
 */
final class ServerChannelInitializer extends ChannelInitializer<Channel>
    implements ProtocolSelector.Protocols {
  private final ServerTransport transport;
  private final RequestDispatcher dispatcher;
  private final ServerConfig config;
  private final InboundBudget budget;
  /** With TLS, or {@code null}. */
  private final TlsHandlers tls;
  /** Whether this port serves RPCX's own protocol. */
  private final boolean rpcx;
  /** What the gRPC side answers, or {@code null} when this port serves no gRPC. */
  private final GrpcRoutes grpc;
  /** The HTTP side, or {@code null} when this port serves no HTTP. */
  private final HttpSide http;
  /** The maximum age of connections, or {@code null}: they live for ever. */
  private final ConnectionAge connectionAge;

  ServerChannelInitializer(
      ServerTransport transport,
      RequestDispatcher dispatcher,
      ServerConfig config,
      InboundBudget budget,
      TlsHandlers tls,
      boolean rpcx,
      GrpcRoutes grpc,
      HttpSide http) {
    this.transport = transport;
    this.dispatcher = dispatcher;
    this.config = config;
    this.budget = budget;
    this.tls = tls;
    this.rpcx = rpcx;
    this.grpc = grpc;
    this.http = http;
    this.connectionAge =
        config.maxConnectionAge() == null
            ? null
            : new ConnectionAge(config.maxConnectionAge(), config.maxConnectionAgeGrace());
  }

  @Override
  protected void initChannel(Channel channel) {
    if (!transport.connectionAccepted(channel)) {
      channel.close(); // too many connections in their handshake: nothing read or decrypted
      return;
    }
    ChannelPipeline pipeline = channel.pipeline();
    pipeline.addLast("budget", budget.meter(reason -> evict(channel, reason)));
    if (tls != null) {
      pipeline.addLast("tls", tls.server(channel.alloc()));
    }
    if (grpc == null && http == null) {
      addRpcx(pipeline, null);
    } else {
      pipeline.addLast(
          "protocol",
          new ProtocolSelector(this, config.prefaceTimeout().toMillis(), http != null, rpcx));
    }
  }

  @Override
  public void rpcx(ChannelHandlerContext ctx) {
    addRpcx(ctx.pipeline(), ctx.name());
  }

  @Override
  public void grpc(ChannelHandlerContext ctx) {
    InboundMeter meter = (InboundMeter) ctx.pipeline().get("budget");
    GrpcServerHandler handler =
        GrpcServerHandler.create(
            transport,
            dispatcher,
            grpc,
            config,
            meter,
            http == null ? null : http.handler(),
            http == null ? 0 : http.maxRequestBytes());
    ctx.pipeline()
        .addAfter(ctx.name(), "grpc", handler)
        .addAfter(ctx.name(), "idle", idleHandler());
    startAging(ctx.channel(), handler);
  }

  @Override
  public void http1(ChannelHandlerContext ctx) {
    Http1ServerHandler handler =
        new Http1ServerHandler(
            transport, dispatcher, http.handler(), http.maxRequestBytes(), config);
    HttpDecoderConfig limits =
        new HttpDecoderConfig()
            .setMaxInitialLineLength(8192)
            // Headers larger than the metadata RPCX takes, with room for HTTP's own, are refused
            // (431) before they are kept, as HTTP/2's header list is.
            .setMaxHeaderSize(config.maxMetadataBytes() + 4096);
    // In reverse: each goes right after the selector.
    ctx.pipeline()
        .addAfter(ctx.name(), "http", handler)
        .addAfter(ctx.name(), "idle", idleHandler())
        .addAfter(ctx.name(), "codec", new HttpServerCodec(limits));
    startAging(ctx.channel(), handler);
  }

  /** RPCX's handlers, after {@code after} (or last). */
  private void addRpcx(ChannelPipeline pipeline, String after) {
    InboundMeter meter = (InboundMeter) pipeline.get("budget");
    ServerConnectionHandler connection =
        new ServerConnectionHandler(
            transport,
            dispatcher,
            config.connection().maxFrameSize(),
            config.connection().maxConcurrentCallsPerConnection());
    connection.meter(meter);
    if (after == null) {
      pipeline
          .addLast("preface", PrefaceHandler.forServer(config.prefaceTimeout().toMillis()))
          .addLast("idle", idleHandler())
          .addLast("frames", new FrameDecoder(config.connection().maxFrameSize(), meter))
          .addLast("connection", connection);
    } else {
      // In reverse: each goes right after the selector.
      pipeline
          .addAfter(after, "connection", connection)
          .addAfter(after, "frames", new FrameDecoder(config.connection().maxFrameSize(), meter))
          .addAfter(after, "idle", idleHandler())
          .addAfter(after, "preface", PrefaceHandler.forServer(config.prefaceTimeout().toMillis()));
    }
    startAging(pipeline.channel(), connection);
  }

  private void startAging(Channel channel, ServedConnection connection) {
    if (connectionAge != null) {
      connectionAge.start(channel, connection);
    }
  }

  /** The budget needs its memory back: the connection is closed, telling the client why. */
  private static void evict(Channel channel, String reason) {
    ChannelHandler connection = channel.pipeline().get("connection");
    if (connection == null) {
      connection = channel.pipeline().get("grpc");
    }
    if (connection == null) {
      connection = channel.pipeline().get("http");
    }
    if (connection instanceof ConnectionSide served) {
      served.closeForProtocolError(StatusCode.RESOURCE_EXHAUSTED, reason);
    } else {
      channel.close(); // still choosing its protocol
    }
  }

  private IdleStateHandler idleHandler() {
    return new IdleStateHandler(config.idleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS);
  }
}
