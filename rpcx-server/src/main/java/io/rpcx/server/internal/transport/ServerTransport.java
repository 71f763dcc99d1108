package io.rpcx.server.internal.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.transport.Bootstraps;
import io.rpcx.core.internal.transport.InProcess;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.core.internal.transport.SslContexts;
import io.rpcx.core.internal.transport.Transports;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import io.rpcx.server.internal.grpc.GrpcRoutes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's network side: binds the listening socket, gives each accepted connection its
 * pipeline ({@link ServerChannelInitializer}), and knows its open connections so that a shutdown
 * can announce itself to all of them.
 */
public final class ServerTransport {

  /** The network transport, or {@code null} in-process. */
  private final Transports transport;
  private final String inProcessName;
  private final EventLoopGroup acceptor;
  private final EventLoopGroup workers;
  private final RequestDispatcher dispatcher;
  private final ServerConfig config;
  private final InboundBudget budget;
  private final SslContext sslContext;
  private final GrpcRoutes grpc;
  private final Set<ServedConnection> connections = ConcurrentHashMap.newKeySet();
  private volatile String goAwayReason;
  private final AtomicInteger connectionCount = new AtomicInteger();
  private Channel listener;

  /**
   * The transport of a server of {@code config}; {@code grpc} is what its gRPC side answers, or
   * {@code null} when it serves RPCX only (then TLS offers no ALPN).
   */
  public ServerTransport(ServerConfig config, RequestDispatcher dispatcher, GrpcRoutes grpc) {
    ConnectionSettings connection = config.connection();
    this.config = config;
    this.grpc = grpc;
    this.sslContext =
        connection.tls() == null
            ? null
            : SslContexts.create(connection.tls(), grpc == null ? List.of() : List.of("h2"));
    this.inProcessName = connection.inProcessName();
    if (inProcessName != null) {
      this.transport = null;
      this.acceptor = InProcess.newGroup(1, "rpcx-server-accept");
      this.workers = InProcess.newGroup(connection.ioThreads(), "rpcx-server-io");
    } else {
      this.transport = Transports.choose(connection.nativeTransport());
      this.acceptor = transport.newGroup(1, "rpcx-server-accept");
      this.workers = transport.newGroup(connection.ioThreads(), "rpcx-server-io");
    }
    this.dispatcher = dispatcher;
    this.budget = new InboundBudget(connection.maxBufferedInboundBytes(), "server");
  }

  /**
   * Binds and starts accepting; returns the bound address (with the real port if 0 was asked), or
   * the in-process address.
   */
  public SocketAddress bind(String host, int port) {
    ServerBootstrap bootstrap =
        (inProcessName != null
                ? InProcess.server(acceptor, workers)
                : Bootstraps.server(transport, acceptor, workers))
            .childHandler(
                new ServerChannelInitializer(this, dispatcher, config, budget, sslContext, grpc));
    if (inProcessName != null) {
      try {
        listener = bootstrap.bind(InProcess.address(inProcessName)).syncUninterruptibly().channel();
      } catch (RuntimeException e) {
        shutdownEventLoops();
        throw new IllegalStateException(
            "cannot serve in-process as '" + inProcessName + "': another server of this JVM"
                + " runs under that name",
            e);
      }
      return listener.localAddress();
    }
    try {
      listener = bootstrap.bind(host, port).syncUninterruptibly().channel();
    } catch (RuntimeException e) {
      shutdownEventLoops();
      throw new UncheckedIOException(
          new IOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e));
    }
    return listener.localAddress();
  }

  /** The transport in use: epoll or NIO, with TLS or not; or in-process. */
  public String transportName() {
    if (transport == null) {
      return "in-process";
    }
    return transport.name().toLowerCase(java.util.Locale.ROOT) + (sslContext != null ? ", TLS" : "");
  }

  /** Why every connection was told to go away, or {@code null} while the server serves. */
  String goAwayReason() {
    return goAwayReason;
  }

  /** Registers a new connection; false if it is over the connection limit. */
  boolean connectionOpened(ServedConnection connection) {
    connections.add(connection);
    return connectionCount.incrementAndGet() <= config.maxConnections();
  }

  void connectionClosed(ServedConnection connection) {
    if (connections.remove(connection)) {
      connectionCount.decrementAndGet();
    }
    synchronized (connections) {
      connections.notifyAll();
    }
  }

  int maxConnections() {
    return config.maxConnections();
  }

  /** Closes the listening socket: no new connections. */
  public void stopAccepting() {
    if (listener != null) {
      listener.close().syncUninterruptibly();
    }
  }

  /**
   * Sends GOAWAY on every open connection, and on any opened from now on; they refuse new calls.
   */
  public void goAwayAll(String message) {
    goAwayReason = message; // before the loop: a connection opened meanwhile reads it
    for (ServedConnection connection : connections) {
      connection.goAway(StatusCode.OK, message);
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
        TimeUnit.NANOSECONDS.timedWait(
            connections, Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(50)));
      }
    }
    return true;
  }

  /** Number of open client connections. */
  public int connectionCount() {
    return connectionCount.get();
  }

  /** Closes every connection at once. */
  public void closeAll() {
    List<ChannelFuture> closing = new ArrayList<>();
    for (ServedConnection connection : connections) {
      closing.add(connection.close("the server is shutting down"));
    }
    // The STREAM_END frames of open streams go out before the event loops stop: a bounded wait.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    for (ChannelFuture close : closing) {
      close.awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
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
