package io.rpcx.client.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.internal.transport.FrameDecoder;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.PrefaceHandler;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline of one client connection, in the order bytes arrive: {@code budget} (the client's
 * {@link InboundMeter}), {@code tls} (with TLS), {@code preface} (the RPCX handshake), {@code idle}
 * (keepalive), {@code frames} (framing, checked against the frame limit) and {@code connection}
 * ({@link ClientConnectionHandler}, which turns frames into calls on its {@link ClientConnection}).
 */
final class ClientChannelInitializer extends ChannelInitializer<Channel> {
  private final ClientConnection connection;
  private final ClientTransport.Settings settings;
  private final String host;
  private final int port;

  ClientChannelInitializer(
      ClientConnection connection, ClientTransport.Settings settings, String host, int port) {
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
    connection.meter(meter);
    pipeline.addLast("budget", meter);
    if (settings.tls != null) {
      pipeline.addLast(
          "tls",
          settings.tls.client(
              channel.alloc(), host, port, settings.verifyHostname, settings.handshakeTimeoutMillis));
    }
    pipeline
        .addLast("preface", PrefaceHandler.forClient())
        .addLast(
            "idle",
            new IdleStateHandler(settings.keepAliveIntervalMillis, 0, 0, TimeUnit.MILLISECONDS))
        .addLast("frames", new FrameDecoder(settings.maxFrameSize, meter))
        .addLast("connection", new ClientConnectionHandler(address, connection));
  }
}
