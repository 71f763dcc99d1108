package io.rpcx.core.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

/**
 * The channel options every RPCX connection has, client or server: RPCX's pooled allocator, no
 * Nagle delay (frames are batched by the write queue instead) and TCP keepalive.
 */
public final class Bootstraps {
  private Bootstraps() {}

  /** A client bootstrap on {@code transport}'s channels in {@code group}. */
  public static Bootstrap client(Transports transport, EventLoopGroup group, int connectTimeoutMillis) {
    return new Bootstrap()
        .group(group)
        .channel(transport.socketChannel())
        .option(ChannelOption.ALLOCATOR, Transports.ALLOCATOR)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_KEEPALIVE, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
  }

  /** A server bootstrap on {@code transport}'s channels, accepting in {@code acceptor}. */
  public static ServerBootstrap server(
      Transports transport, EventLoopGroup acceptor, EventLoopGroup workers) {
    return new ServerBootstrap()
        .group(acceptor, workers)
        .channel(transport.serverSocketChannel())
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.ALLOCATOR, Transports.ALLOCATOR)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_KEEPALIVE, true);
  }
}
