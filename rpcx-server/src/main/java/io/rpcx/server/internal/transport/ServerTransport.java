package io.rpcx.server.internal.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.rpcx.core.internal.transport.FrameDecoder;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.Transports;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The server's network side: binds the listening socket, builds each connection's pipeline
 * (preface, framing, connection handler), and knows its open connections so that a shutdown can
 * announce itself to all of them.
 */
public final class ServerTransport {
  private final Transports transport;
  private final EventLoopGroup acceptor;
  private final EventLoopGroup workers;
  private final RequestDispatcher dispatcher;
  private final int maxFrameSize;
  private final long prefaceTimeoutMillis;
  private final Set<ServerConnectionHandler> connections = ConcurrentHashMap.newKeySet();
  private Channel listener;

  public ServerTransport(
      boolean allowNative,
      int ioThreads,
      RequestDispatcher dispatcher,
      int maxFrameSize,
      long prefaceTimeoutMillis) {
    this.transport = Transports.choose(allowNative);
    this.acceptor = transport.newGroup(1, "rpcx-server-accept");
    this.workers = transport.newGroup(ioThreads, "rpcx-server-io");
    this.dispatcher = dispatcher;
    this.maxFrameSize = maxFrameSize;
    this.prefaceTimeoutMillis = prefaceTimeoutMillis;
  }

  /** Binds and starts accepting; returns the bound address (with the real port if 0 was asked). */
  public InetSocketAddress bind(String host, int port) {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(acceptor, workers)
            .channel(transport.serverSocketChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    channel
                        .pipeline()
                        .addLast("preface", PrefaceHandler.forServer(prefaceTimeoutMillis))
                        .addLast("frames", new FrameDecoder(maxFrameSize))
                        .addLast(
                            "connection",
                            new ServerConnectionHandler(
                                ServerTransport.this, dispatcher, maxFrameSize));
                  }
                });
    try {
      listener = bootstrap.bind(host, port).syncUninterruptibly().channel();
    } catch (RuntimeException e) {
      shutdownEventLoops();
      throw new UncheckedIOException(
          new IOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e));
    }
    return (InetSocketAddress) listener.localAddress();
  }

  /** The transport in use: epoll or NIO. */
  public String transportName() {
    return transport.name().toLowerCase(java.util.Locale.ROOT);
  }

  void connectionOpened(ServerConnectionHandler connection) {
    connections.add(connection);
  }

  void connectionClosed(ServerConnectionHandler connection) {
    connections.remove(connection);
    synchronized (connections) {
      connections.notifyAll();
    }
  }

  /** Closes the listening socket: no new connections. */
  public void stopAccepting() {
    if (listener != null) {
      listener.close().syncUninterruptibly();
    }
  }

  /** Sends GOAWAY on every open connection; they refuse new calls from now on. */
  public void goAwayAll(String message) {
    for (ServerConnectionHandler connection : connections) {
      connection.goAway(message);
    }
  }

  /** Waits until every connection is closed (clients close drained connections) or the deadline. */
  public boolean awaitConnectionsClosed(long deadlineNanos) throws InterruptedException {
    synchronized (connections) {
      while (!connections.isEmpty()) {
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(connections, Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(50)));
      }
    }
    return true;
  }

  /** Number of open client connections. */
  public int connectionCount() {
    return connections.size();
  }

  /** Closes every connection at once. */
  public void closeAll() {
    for (ServerConnectionHandler connection : connections) {
      connection.channel().close();
    }
  }

  /** Stops the event loops and waits for them. */
  public void shutdownEventLoops() {
    acceptor.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    acceptor.terminationFuture().syncUninterruptibly();
    workers.terminationFuture().syncUninterruptibly();
  }
}
