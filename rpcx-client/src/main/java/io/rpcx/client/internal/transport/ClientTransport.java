package io.rpcx.client.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.EventLoopGroup;
import io.netty.util.AsciiString;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.client.internal.config.ClientConfig;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.transport.Bootstraps;
import io.rpcx.core.internal.transport.InProcess;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.core.internal.transport.TlsHandlers;
import io.rpcx.core.internal.transport.Transports;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client's network side: one event loop group, which also times asynchronous calls out, and
 * the {@link ServerConnector}s it opened (the cluster layer keeps one per server address). Thread-safe.
 */
public final class ClientTransport {

  /** What every connection of a client shares, derived from its configuration. Immutable. */
  static final class Settings {
    final int maxFrameSize;
    final int maxConcurrentCalls;
    final long keepAliveIntervalMillis;
    final long keepAliveTimeoutMillis;
    final boolean keepAliveWithoutCalls;
    final long initialBackoffMillis;
    final long maxBackoffMillis;
    final long handshakeTimeoutMillis;
    /** With TLS, or {@code null}. */
    final TlsHandlers tls;
    final boolean verifyHostname;
    /** The client's TLS settings, or {@code null}. */
    private final TlsConfig tlsConfig;
    /** TLS asking for HTTP/2 by ALPN, for gRPC servers; made when first needed. */
    private volatile TlsHandlers grpcTls;
    /** The {@code :path} of each method called over gRPC so far. */
    private final Map<MethodModel, AsciiString> grpcPaths = new ConcurrentHashMap<>();
    final InboundBudget budget;
    /** In-process connections only (the host is the server's name), or {@code null}. */
    final String inProcessName;

    Settings(ClientConfig config) {
      ConnectionSettings connection = config.connection();
      this.maxFrameSize = connection.maxFrameSize();
      this.maxConcurrentCalls = connection.maxConcurrentCallsPerConnection();
      this.keepAliveIntervalMillis = config.keepAliveInterval().toMillis();
      this.keepAliveTimeoutMillis = config.keepAliveTimeout().toMillis();
      this.keepAliveWithoutCalls = config.keepAliveWithoutCalls();
      this.initialBackoffMillis = config.initialBackoff().toMillis();
      this.maxBackoffMillis = config.maxBackoff().toMillis();
      this.handshakeTimeoutMillis = config.connectTimeout().toMillis();
      TlsConfig tls = connection.tls();
      this.tlsConfig = tls;
      this.tls = tls == null ? null : TlsHandlers.create(tls, "rpcx-client-tls");
      this.verifyHostname = tls != null && tls.verifyHostname();
      this.budget = new InboundBudget(connection.maxBufferedInboundBytes(), "client");
      this.inProcessName = connection.inProcessName();
    }

    /**
     * The {@code :path} gRPC calls {@code call}'s method at, worked out once per method.
     *
     * @throws IllegalStateException if its service cannot be exported, so not called over gRPC
     */
    AsciiString grpcPath(PendingCall call) {
      AsciiString path = grpcPaths.get(call.model());
      if (path == null) {
        path = new AsciiString(call.grpcPath());
        grpcPaths.putIfAbsent(call.model(), path);
      }
      return path;
    }

    /**
     * The TLS of connections to gRPC servers, offering HTTP/2 ({@code h2}) by ALPN, as gRPC
     * requires; {@code null} without TLS.
     */
    TlsHandlers grpcTls() {
      if (tlsConfig == null) {
        return null;
      }
      TlsHandlers handlers = grpcTls;
      if (handlers == null) {
        synchronized (this) {
          handlers = grpcTls;
          if (handlers == null) {
            handlers =
                TlsHandlers.create(
                    tlsConfig, "rpcx-client-grpc-tls", List.of(GrpcConnection.ALPN_H2));
            grpcTls = handlers;
          }
        }
      }
      return handlers;
    }

    /** Stops the pools of the TLS handshakes. */
    void closeTls() {
      if (tls != null) {
        tls.close();
      }
      TlsHandlers handlers = grpcTls;
      if (handlers != null) {
        handlers.close();
      }
    }
  }

  private final EventLoopGroup group;
  private final Bootstrap bootstrap;
  private final Settings settings;
  private final Set<ServerConnector> connectors = ConcurrentHashMap.newKeySet();
  private final AtomicInteger openConnections = new AtomicInteger();
  private volatile boolean closed;

  public ClientTransport(ClientConfig config) {
    ConnectionSettings connection = config.connection();
    this.settings = new Settings(config);
    if (settings.inProcessName != null) {
      this.group = InProcess.newGroup(connection.ioThreads(), "rpcx-client-io");
      this.bootstrap = InProcess.client(group);
      return;
    }
    Transports transport = Transports.choose(connection.nativeTransport());
    this.group = transport.newGroup(connection.ioThreads(), "rpcx-client-io");
    this.bootstrap =
        Bootstraps.client(
            transport, group,
            (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
  }

  /**
   * A new channel to {@code endpoint}, in the protocol it names ({@link
   * ServiceEndpoint#protocol()}); it connects on its first call. {@code disconnected} runs (on a
   * network thread, holding no lock) when a connection in use is lost or the server sends GOAWAY,
   * and when a connection attempt fails.
   */
  public ServerLink open(ServiceEndpoint endpoint, Runnable disconnected) {
    ServerConnector connector =
        new ServerConnector(
            endpoint.host(),
            endpoint.port(),
            ServiceEndpoint.GRPC.equals(endpoint.protocol()),
            bootstrap,
            settings,
            this,
            disconnected);
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

  /** A connection to a server opened (TCP). */
  void connectionOpened() {
    openConnections.incrementAndGet();
  }

  /** A connection counted by {@link #connectionOpened()} closed. */
  void connectionClosed() {
    openConnections.decrementAndGet();
  }

  /** Connections to servers open now, probes' included. */
  public int openConnections() {
    return openConnections.get();
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
    settings.closeTls();
  }
}
