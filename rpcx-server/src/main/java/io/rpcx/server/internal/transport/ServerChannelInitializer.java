package io.rpcx.server.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.transport.FrameDecoder;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.TlsHandlers;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline of one accepted connection, in the order bytes arrive: {@code budget} (the server's
 * {@link InboundMeter}), {@code tls} (with TLS), {@code preface} (the RPCX handshake), {@code idle}
 * (closing idle connections), {@code frames} (framing, checked against the frame limit) and {@code
 * connection} ({@link ServerConnectionHandler}, which hands requests to the dispatcher). With a
 * maximum connection age, each connection's {@link ConnectionAge} timer starts here.
 */
final class ServerChannelInitializer extends ChannelInitializer<Channel> {
  private final ServerTransport transport;
  private final RequestDispatcher dispatcher;
  private final ServerConfig config;
  private final InboundBudget budget;
  /** With TLS, or {@code null}. */
  private final TlsHandlers tls;
  /** The maximum age of connections, or {@code null}: they live for ever. */
  private final ConnectionAge connectionAge;

  ServerChannelInitializer(
      ServerTransport transport,
      RequestDispatcher dispatcher,
      ServerConfig config,
      InboundBudget budget,
      TlsHandlers tls) {
    this.transport = transport;
    this.dispatcher = dispatcher;
    this.config = config;
    this.budget = budget;
    this.tls = tls;
    this.connectionAge =
        config.maxConnectionAge() == null
            ? null
            : new ConnectionAge(config.maxConnectionAge(), config.maxConnectionAgeGrace());
  }

  @Override
  protected void initChannel(Channel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    ServerConnectionHandler connection =
        new ServerConnectionHandler(
            transport,
            dispatcher,
            config.connection().maxFrameSize(),
            config.connection().maxConcurrentCallsPerConnection());
    InboundMeter meter =
        budget.meter(
            reason -> connection.closeForProtocolError(StatusCode.RESOURCE_EXHAUSTED, reason));
    connection.meter(meter);
    pipeline.addLast("budget", meter);
    if (tls != null) {
      pipeline.addLast("tls", tls.server(channel.alloc()));
    }
    pipeline
        .addLast("preface", PrefaceHandler.forServer(config.prefaceTimeout().toMillis()))
        .addLast(
            "idle",
            new IdleStateHandler(config.idleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS))
        .addLast("frames", new FrameDecoder(config.connection().maxFrameSize(), meter))
        .addLast("connection", connection);
    if (connectionAge != null) {
      connectionAge.start(channel, connection);
    }
  }
}
