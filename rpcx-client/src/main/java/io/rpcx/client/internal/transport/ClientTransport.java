package io.rpcx.client.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.rpcx.client.internal.call.CallChannel;
import io.rpcx.core.internal.transport.Transports;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The client's network side: one event loop group and one {@link Endpoint} per server address,
 * shared by every proxy of the client. Thread-safe.
 */
public final class ClientTransport {
  private final EventLoopGroup group;
  private final Bootstrap bootstrap;
  private final int maxFrameSize;
  private final int maxConcurrentCalls;
  private final Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();

  public ClientTransport(
      boolean allowNative,
      int ioThreads,
      int connectTimeoutMillis,
      int maxFrameSize,
      int maxConcurrentCalls) {
    Transports transport = Transports.choose(allowNative);
    this.group = transport.newGroup(ioThreads, "rpcx-client-io");
    this.bootstrap =
        new Bootstrap()
            .group(group)
            .channel(transport.socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
    this.maxFrameSize = maxFrameSize;
    this.maxConcurrentCalls = maxConcurrentCalls;
  }

  /** The endpoint of {@code host:port}, shared by all callers. */
  public CallChannel endpoint(String host, int port) {
    return endpoints.computeIfAbsent(
        host + ":" + port,
        key -> new Endpoint(host, port, bootstrap, maxFrameSize, maxConcurrentCalls));
  }

  /** Closes every connection (pending calls fail as unavailable) and stops the event loops. */
  public void close() {
    List<Endpoint> all = new ArrayList<>(endpoints.values());
    for (Endpoint endpoint : all) {
      endpoint.close();
    }
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
