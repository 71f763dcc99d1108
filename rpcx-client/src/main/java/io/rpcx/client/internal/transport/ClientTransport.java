package io.rpcx.client.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.core.internal.transport.SslContexts;
import io.rpcx.core.internal.transport.Transports;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The client's network side: one event loop group, which also times asynchronous calls out, and
 * the {@link ServerConnector}s it opened (the cluster layer keeps one per server address). Thread-safe.
 */
public final class ClientTransport {

  /** What every connection of a client shares. Immutable. */
  static final class Settings {
    final int maxFrameSize;
    final int maxConcurrentCalls;
    final long keepAliveIntervalMillis;
    final long keepAliveTimeoutMillis;
    final long initialBackoffMillis;
    final long maxBackoffMillis;
    final long handshakeTimeoutMillis;
    final SslContext sslContext;
    final boolean verifyHostname;
    final InboundBudget budget;

    Settings(Options options) {
      this.maxFrameSize = options.maxFrameSize;
      this.maxConcurrentCalls = options.maxConcurrentCalls;
      this.keepAliveIntervalMillis = options.keepAliveIntervalMillis;
      this.keepAliveTimeoutMillis = options.keepAliveTimeoutMillis;
      this.initialBackoffMillis = options.initialBackoffMillis;
      this.maxBackoffMillis = options.maxBackoffMillis;
      this.handshakeTimeoutMillis = options.connectTimeoutMillis;
      this.sslContext = options.tls == null ? null : SslContexts.create(options.tls);
      this.verifyHostname = options.tls != null && options.tls.verifyHostname();
      this.budget = new InboundBudget(options.maxBufferedInboundBytes, "client");
    }
  }

  /** The client builder's transport settings. */
  public static final class Options {
    public boolean allowNative = true;
    public int ioThreads = 1;
    public int connectTimeoutMillis = 3_000;
    public int maxFrameSize = 16 * 1024 * 1024;
    public int maxConcurrentCalls = 10_000;
    public long keepAliveIntervalMillis = 30_000;
    public long keepAliveTimeoutMillis = 10_000;
    public long initialBackoffMillis = 1_000;
    public long maxBackoffMillis = 120_000;
    public long maxBufferedInboundBytes = InboundBudget.defaultLimit();
    public TlsConfig tls;
  }

  private final EventLoopGroup group;
  private final Bootstrap bootstrap;
  private final Settings settings;
  private final Set<ServerConnector> connectors = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  public ClientTransport(Options options) {
    Transports transport = Transports.choose(options.allowNative);
    this.settings = new Settings(options);
    this.group = transport.newGroup(options.ioThreads, "rpcx-client-io");
    this.bootstrap =
        new Bootstrap()
            .group(group)
            .channel(transport.socketChannel())
            .option(ChannelOption.ALLOCATOR, Transports.ALLOCATOR)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, options.connectTimeoutMillis);
  }

  /** A new channel to {@code host:port}; it connects on its first call. */
  public ServerLink open(String host, int port) {
    ServerConnector connector = new ServerConnector(host, port, bootstrap, settings, this);
    connectors.add(connector);
    if (closed) {
      connector.close();
    }
    return connector;
  }

  /** Runs delayed work of the client's connections, such as probes (the network threads). */
  public ScheduledExecutorService scheduler() {
    return group;
  }

  /** A retired connector's connection closes by itself once drained. */
  void forget(ServerConnector connector) {
    connectors.remove(connector);
  }

  /** Calls in flight on all connections. */
  public int callsInFlight() {
    int total = 0;
    for (ServerConnector connector : connectors) {
      total += connector.pendingCount();
    }
    return total;
  }

  /** Closes every connection (pending calls fail as unavailable) and stops the threads. */
  public void close() {
    closed = true;
    List<ServerConnector> all = new ArrayList<>(connectors);
    for (ServerConnector connector : all) {
      connector.close();
    }
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
