package io.rpcx.client.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.TlsHandlers;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline of one connection to a gRPC server, in the order bytes arrive: {@code budget} (the
 * client's {@link InboundMeter}), {@code tls} (with TLS, offering {@code h2} by ALPN), {@code idle}
 * (keepalive) and {@code http2} ({@link GrpcClientHandler}: Netty's HTTP/2 codec, whose streams are
 * the calls of its {@link GrpcConnection}).
 */
final class GrpcChannelInitializer extends ChannelInitializer<Channel> {
  private final GrpcConnection connection;
  private final ClientTransport.Settings settings;
  private final String host;
  private final int port;

  GrpcChannelInitializer(
      GrpcConnection connection, ClientTransport.Settings settings, String host, int port) {
    this.connection = connection;
    this.settings = settings;
    this.host = host;
    this.port = port;
  }

  @Override
  protected void initChannel(Channel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    String address = connection.address();
    InboundMeter meter =
        settings.budget.meter(
            reason ->
                connection.closeWith(
                    new ResourceExhaustedException(
                        "the connection to " + address + " was closed: " + reason)));
    pipeline.addLast("budget", meter);
    TlsHandlers tls = settings.grpcTls();
    if (tls != null) {
      pipeline.addLast(
          "tls",
          tls.client(
              channel.alloc(), host, port, settings.verifyHostname,
              settings.handshakeTimeoutMillis));
    }
    GrpcClientHandler handler = GrpcClientHandler.create(connection, meter);
    connection.handler(handler, meter);
    pipeline
        .addLast(
            "idle",
            new IdleStateHandler(
                connection.keepAliveIntervalMillis(), 0, 0, TimeUnit.MILLISECONDS))
        .addLast("http2", handler);
  }
}
