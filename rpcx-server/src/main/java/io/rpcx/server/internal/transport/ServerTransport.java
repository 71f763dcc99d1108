package io.rpcx.server.internal.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.rpcx.core.StatusCode;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.internal.transport.FrameDecoder;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.SslContexts;
import io.rpcx.core.internal.transport.Transports;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's network side: binds the listening socket, builds each connection's pipeline (TLS,
 * preface, idle detection, framing, connection handler), and knows its open connections so that a
 * shutdown can announce itself to all of them.
 */
public final class ServerTransport {

  /** The server builder's transport settings. */
  public static final class Options {
    public boolean allowNative = true;
    public int ioThreads = 1;
    public int maxFrameSize = 16 * 1024 * 1024;
    public long prefaceTimeoutMillis = 10_000;
    public int maxConnections = 10_000;
    public int maxConcurrentCallsPerConnection = 10_000;
    public long idleTimeoutMillis = 600_000;
    public long maxBufferedInboundBytes = InboundBudget.defaultLimit();
    public TlsConfig tls;
  }

  private final Transports transport;
  private final EventLoopGroup acceptor;
  private final EventLoopGroup workers;
  private final RequestDispatcher dispatcher;
  private final Options options;
  private final InboundBudget budget;
  private final SslContext sslContext;
  private final Set<ServerConnectionHandler> connections = ConcurrentHashMap.newKeySet();
  private volatile String goAwayReason;
  private final AtomicInteger connectionCount = new AtomicInteger();
  private Channel listener;

  public ServerTransport(Options options, RequestDispatcher dispatcher) {
    this.options = options;
    this.sslContext = options.tls == null ? null : SslContexts.create(options.tls);
    this.transport = Transports.choose(options.allowNative);
    this.acceptor = transport.newGroup(1, "rpcx-server-accept");
    this.workers = transport.newGroup(options.ioThreads, "rpcx-server-io");
    this.dispatcher = dispatcher;
    this.budget = new InboundBudget(options.maxBufferedInboundBytes, "server");
  }

  /** Binds and starts accepting; returns the bound address (with the real port if 0 was asked). */
  public InetSocketAddress bind(String host, int port) {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(acceptor, workers)
            .channel(transport.serverSocketChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.ALLOCATOR, Transports.ALLOCATOR)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    ChannelPipeline pipeline = channel.pipeline();
                    ServerConnectionHandler connection =
                        new ServerConnectionHandler(
                            ServerTransport.this,
                            dispatcher,
                            options.maxFrameSize,
                            options.maxConcurrentCallsPerConnection);
                    InboundMeter meter =
                        budget.meter(
                            reason ->
                                connection.closeForProtocolError(
                                    StatusCode.RESOURCE_EXHAUSTED, reason));
                    connection.meter(meter);
                    pipeline.addLast("budget", meter);
                    if (sslContext != null) {
                      pipeline.addLast("tls", sslContext.newHandler(channel.alloc()));
                    }
                    pipeline
                        .addLast("preface", PrefaceHandler.forServer(options.prefaceTimeoutMillis))
                        .addLast(
                            "idle",
                            new IdleStateHandler(
                                options.idleTimeoutMillis, 0, 0, TimeUnit.MILLISECONDS))
                        .addLast("frames", new FrameDecoder(options.maxFrameSize, meter))
                        .addLast("connection", connection);
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

  /** The transport in use: epoll or NIO, with TLS or not. */
  public String transportName() {
    return transport.name().toLowerCase(java.util.Locale.ROOT) + (sslContext != null ? ", TLS" : "");
  }

  /** Why every connection was told to go away, or {@code null} while the server serves. */
  String goAwayReason() {
    return goAwayReason;
  }

  /** Registers a new connection; false if it is over the connection limit. */
  boolean connectionOpened(ServerConnectionHandler connection) {
    connections.add(connection);
    return connectionCount.incrementAndGet() <= options.maxConnections;
  }

  void connectionClosed(ServerConnectionHandler connection) {
    if (connections.remove(connection)) {
      connectionCount.decrementAndGet();
    }
    synchronized (connections) {
      connections.notifyAll();
    }
  }

  int maxConnections() {
    return options.maxConnections;
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
    for (ServerConnectionHandler connection : connections) {
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
