package io.rpcx.server.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.transport.FrameDecoder;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import io.rpcx.server.internal.dispatch.ServerConnection;
import io.rpcx.server.internal.grpc.GrpcRoutes;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline of one accepted connection, in the order bytes arrive: {@code budget} (the server's
 * {@link InboundMeter}), {@code tls} (with TLS), and, once the first bytes tell RPCX from gRPC
 * ({@link ProtocolSelector}, when the server serves gRPC): for RPCX, {@code preface} (the RPCX
 * handshake), {@code idle} (closing idle connections), {@code frames} (framing, checked against the
 * frame limit) and {@code connection} ({@link ServerConnectionHandler}); for gRPC, {@code idle} and
 * {@code grpc} ({@link GrpcServerHandler}: Netty's HTTP/2 codec and the calls above it). With a
 * maximum connection age, each connection's {@link ConnectionAge} timer starts once its protocol
 * is known.
 */
final class ServerChannelInitializer extends ChannelInitializer<Channel>
    implements ProtocolSelector.Protocols {
  private final ServerTransport transport;
  private final RequestDispatcher dispatcher;
  private final ServerConfig config;
  private final InboundBudget budget;
  /** With TLS, or {@code null}. */
  private final SslContext sslContext;
  /** What the gRPC side answers, or {@code null} when the server serves RPCX only. */
  private final GrpcRoutes grpc;
  /** The maximum age of connections, or {@code null}: they live for ever. */
  private final ConnectionAge connectionAge;

  ServerChannelInitializer(
      ServerTransport transport,
      RequestDispatcher dispatcher,
      ServerConfig config,
      InboundBudget budget,
      SslContext sslContext,
      GrpcRoutes grpc) {
    this.transport = transport;
    this.dispatcher = dispatcher;
    this.config = config;
    this.budget = budget;
    this.sslContext = sslContext;
    this.grpc = grpc;
    this.connectionAge =
        config.maxConnectionAge() == null
            ? null
            : new ConnectionAge(config.maxConnectionAge(), config.maxConnectionAgeGrace());
  }

  @Override
  protected void initChannel(Channel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    pipeline.addLast("budget", budget.meter(reason -> evict(channel, reason)));
    if (sslContext != null) {
      pipeline.addLast("tls", sslContext.newHandler(channel.alloc()));
    }
    if (grpc == null) {
      addRpcx(pipeline, null);
    } else {
      pipeline.addLast(
          "protocol", new ProtocolSelector(this, config.prefaceTimeout().toMillis()));
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
        GrpcServerHandler.create(transport, dispatcher, grpc, config, meter);
    ctx.pipeline()
        .addAfter(ctx.name(), "grpc", handler)
        .addAfter(ctx.name(), "idle", idleHandler());
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
    if (connection instanceof ServerConnection served) {
      served.closeForProtocolError(StatusCode.RESOURCE_EXHAUSTED, reason);
    } else {
      channel.close(); // still choosing its protocol
    }
  }

  private IdleStateHandler idleHandler() {
    return new IdleStateHandler(config.idleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS);
  }
}
