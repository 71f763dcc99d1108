package io.rpcx.server.internal.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.util.AttributeKey;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.transport.Bootstraps;
import io.rpcx.core.internal.transport.InProcess;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.core.internal.transport.TlsHandlers;
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
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.LoggerFactory;

/**
 * The server's network side: binds the listening socket, gives each accepted connection its
 * pipeline ({@link ServerChannelInitializer}), and knows its open connections so that a shutdown
 * can announce itself to all of them.
 *
 * <p>A connection is counted from its arrival: first among the handshaking ones ({@link
 * HandshakingConnections}, bounded in all and per address) until it has shown which protocol it
 * speaks and spoken it (RPCX's preface, or HTTP/2's), then against {@code maxConnections}. Its
 * handler ({@link ServedConnection}, either protocol) registers once added, so that a shutdown
 * can tell it to go away.
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
  /** The place of each accepted connection among the counted ones. */
  private static final AttributeKey<Admission> ADMISSION =
      AttributeKey.valueOf(ServerTransport.class, "admission");

  /** With TLS, or {@code null}. */
  private final TlsHandlers tls;
  /** TLS of the HTTP side's own port, or {@code null}. */
  private final TlsHandlers httpTls;
  /** What the gRPC side answers, or {@code null} when the server serves RPCX only. */
  private final GrpcRoutes grpc;
  /** The HTTP side, or {@code null} when the server serves no HTTP. */
  private final HttpSide http;
  /** Every connection accepted and still open, whatever it speaks, or still in its handshake. */
  private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
  /** The handlers of open connections whose protocol is known: those a shutdown tells. */
  private final Set<ServedConnection> connections = ConcurrentHashMap.newKeySet();
  private volatile String goAwayReason;
  /** Connections that sent a valid preface and are open: what {@code maxConnections} bounds. */
  private final AtomicInteger connectionCount = new AtomicInteger();
  private final HandshakingConnections handshaking;
  private final LongAdder refusedConnections = new LongAdder();
  private final RefusalLog refusals =
      new RefusalLog(LoggerFactory.getLogger(ServerConnectionHandler.class), 10, TimeUnit.SECONDS);
  private Channel listener;
  /** The HTTP side's own listening socket, or {@code null}. */
  private Channel httpListener;

  /**
   * The transport of a server of {@code config}; {@code grpc} is what its gRPC side answers, or
   * {@code null} when it serves no gRPC; {@code http} its HTTP side, or {@code null}. With TLS,
   * ALPN offers what each port serves over HTTP ({@code h2}, {@code http/1.1}), nothing on a port
   * of RPCX alone.
   */
  public ServerTransport(
      ServerConfig config, RequestDispatcher dispatcher, GrpcRoutes grpc, HttpSide http) {
    ConnectionSettings connection = config.connection();
    this.config = config;
    this.grpc = grpc;
    this.http = http;
    boolean httpHere = http != null && !http.ownPort();
    List<String> alpn =
        httpHere ? List.of("h2", "http/1.1") : grpc != null ? List.of("h2") : List.of();
    this.tls =
        connection.tls() == null
            ? null
            : TlsHandlers.create(connection.tls(), "rpcx-server-tls", alpn);
    this.httpTls =
        connection.tls() == null || http == null || !http.ownPort()
            ? null
            : TlsHandlers.create(connection.tls(), "rpcx-http-tls", List.of("h2", "http/1.1"));
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
    this.handshaking =
        new HandshakingConnections(
            config.maxHandshakingConnections(), config.maxHandshakingConnectionsPerAddress());
  }

  /**
   * Binds and starts accepting; returns the bound address (with the real port if 0 was asked), or
   * the in-process address.
   */
  public SocketAddress bind(String host, int port) {
    boolean httpHere = http != null && !http.ownPort();
    ServerBootstrap bootstrap =
        (inProcessName != null
                ? InProcess.server(acceptor, workers)
                : Bootstraps.server(transport, acceptor, workers))
            .childHandler(
                new ServerChannelInitializer(
                    this, dispatcher, config, budget, tls, true, grpc, httpHere ? http : null));
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
    listener = listen(bootstrap, host, port);
    if (http != null && http.ownPort()) {
      ServerBootstrap httpBootstrap =
          Bootstraps.server(transport, acceptor, workers)
              .childHandler(
                  new ServerChannelInitializer(
                      this, dispatcher, config, budget, httpTls, false, null, http));
      try {
        httpListener = listen(httpBootstrap, host, http.port());
      } catch (RuntimeException e) {
        listener.close().syncUninterruptibly();
        throw e;
      }
    }
    return listener.localAddress();
  }

  private Channel listen(ServerBootstrap bootstrap, String host, int port) {
    try {
      return bootstrap.bind(host, port).syncUninterruptibly().channel();
    } catch (RuntimeException e) {
      shutdownEventLoops();
      throw new UncheckedIOException(
          new IOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e));
    }
  }

  /** The address of the HTTP side's own port, or {@code null} when it has none. */
  public SocketAddress httpAddress() {
    return httpListener == null ? null : httpListener.localAddress();
  }

  /** The transport in use: epoll or NIO, with TLS or not; or in-process. */
  public String transportName() {
    if (transport == null) {
      return "in-process";
    }
    return transport.name().toLowerCase(java.util.Locale.ROOT)
        + (tls != null ? ", " + tls.describe() : "");
  }

  /** Why every connection was told to go away, or {@code null} while the server serves. */
  String goAwayReason() {
    return goAwayReason;
  }

  /**
   * Counts {@code channel}, just accepted, among the handshaking connections; false, counting
   * nothing, if there are too many of them (from its address, or in all): the caller closes it at
   * once, and the refusal is logged (at most a line per 10 s). Its place is given back when it
   * closes.
   */
  boolean connectionAccepted(Channel channel) {
    SocketAddress remote = channel.remoteAddress();
    String refused = handshaking.admit(HandshakingConnections.source(remote));
    if (refused != null) {
      logRefusal(remote, refused);
      return false;
    }
    Admission admission = new Admission(remote);
    channel.attr(ADMISSION).set(admission);
    channels.add(channel);
    channel.closeFuture().addListener(closed -> connectionClosed(channel, admission));
    return true;
  }

  /**
   * {@code channel} spoke its protocol (a valid RPCX preface, or HTTP/2's): it leaves the
   * handshaking connections and counts against {@code maxConnections}; false if it is over that
   * limit. Event loop of the channel only.
   */
  boolean connectionSpoke(Channel channel) {
    Admission admission = channel.attr(ADMISSION).get();
    if (admission == null || admission.spoke) {
      return true;
    }
    admission.spoke = true;
    handshaking.release(HandshakingConnections.source(admission.remote));
    return connectionCount.incrementAndGet() <= config.maxConnections();
  }

  /**
   * The handler of {@code channel}'s protocol was added: a shutdown tells it to go away, and closes
   * it through it.
   */
  void connectionServed(Channel channel, ServedConnection connection) {
    Admission admission = channel.attr(ADMISSION).get();
    if (admission != null) {
      admission.served = connection;
    }
    connections.add(connection);
  }

  /** The connection of that handler closed. */
  void connectionGone(ServedConnection connection) {
    connections.remove(connection);
  }

  private void connectionClosed(Channel channel, Admission admission) {
    if (admission.spoke) {
      connectionCount.decrementAndGet();
    } else {
      handshaking.release(HandshakingConnections.source(admission.remote));
    }
    channels.remove(channel);
    synchronized (channels) {
      channels.notifyAll();
    }
  }

  /** Where an accepted connection counts; changed on its event loop only. */
  private static final class Admission {
    final SocketAddress remote;
    /** Whether it spoke its protocol (else it holds a handshaking place). */
    boolean spoke;
    /** The handler of its protocol, once added ({@link #connectionServed}), else {@code null}. */
    volatile ServedConnection served;

    Admission(SocketAddress remote) {
      this.remote = remote;
    }
  }

  /**
   * Logs that a connection from {@code remote} is refused, and why: the first of every 10 s at
   * WARN, the others counted into the next line.
   */
  void logRefusal(Object remote, String why) {
    refusedConnections.increment();
    refusals.refused(remote, why);
  }

  /** Connections refused so far: too many handshaking, or over {@code maxConnections}. */
  public long refusedConnections() {
    return refusedConnections.sum();
  }

  int maxConnections() {
    return config.maxConnections();
  }

  /** Closes the listening socket: no new connections. */
  public void stopAccepting() {
    if (listener != null) {
      listener.close().syncUninterruptibly();
    }
    if (httpListener != null) {
      httpListener.close().syncUninterruptibly();
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
    synchronized (channels) {
      while (!channels.isEmpty()) {
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(
            channels, Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(50)));
      }
    }
    return true;
  }

  /** Open client connections that sent their preface (those {@code maxConnections} counts). */
  public int connectionCount() {
    return connectionCount.get();
  }

  /** Open client connections that have not sent their preface yet. */
  public int handshakingCount() {
    return handshaking.count();
  }

  /** Closes every connection at once. */
  public void closeAll() {
    List<ChannelFuture> closing = new ArrayList<>();
    for (Channel channel : channels) {
      Admission admission = channel.attr(ADMISSION).get();
      ServedConnection served = admission == null ? null : admission.served;
      // Through its protocol's handler, which ends its calls first; else it never showed one.
      closing.add(
          served != null ? served.close("the server is shutting down") : channel.close());
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
    if (tls != null) {
      tls.close();
    }
    if (httpTls != null) {
      httpTls.close();
    }
  }
}
