package io.rpcx.client.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.transport.InProcess;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server address and the connection the client keeps to it, in the protocol the server speaks
 * there (RPCX's own, or gRPC). The connection is opened on the
 * first call and replaced when it closes or the server sends GOAWAY; calls made meanwhile wait in
 * the new connection's queue. After a failed connection attempt, the next one waits for an
 * exponential backoff with jitter; calls made in that time fail at once as unavailable (safe to
 * retry elsewhere) instead of waiting. Thread-safe.
 *
 * <p>Once it has wanted a connection, the connector keeps one in the background, idle client or
 * not, so that what it reports of the server ({@link #linkState()}) is true without a call to find
 * out: when the server says it is going away (GOAWAY) the server is {@code GOING_AWAY} at once and
 * the connector reconnects after its backoff; when the connection closes otherwise, it reconnects
 * at once; a failed attempt makes the server {@code UNREACHABLE} until an attempt, every backoff,
 * succeeds. Each change is logged once: going away and back (INFO), unreachable (WARN for a server
 * that answered before and did not say it was going away, INFO otherwise).
 */
final class ServerConnector implements ServerLink {
  private static final Logger logger = LoggerFactory.getLogger(ServerConnector.class);
  /** The scheme a gRPC server's address is named with, in messages and endpoint statuses. */
  static final String GRPC_SCHEME = "grpc://";

  private final String host;
  private final int port;
  /** Whether the server speaks gRPC at this address; RPCX's own protocol if not. */
  private final boolean grpc;
  private final String address;
  private final Bootstrap bootstrap;
  private final ClientTransport.Settings settings;
  private final ClientTransport transport;
  private final Backoff backoff;
  /** Told when a connection in use is lost or a connection attempt fails, outside any lock. */
  private final Runnable disconnected;
  private volatile Connection current;
  /** The connection of a retired connector while its calls end. */
  private volatile Connection retiring;
  private volatile boolean closed;
  private String closedReason;
  private volatile long retryAtNanos;
  private volatile RpcxException lastFailure;
  /**
   * What the server said in its GOAWAY, from then until the next connection attempt ends; or
   * {@code null}.
   */
  private volatile String goingAway;
  /** A reconnect is scheduled in the background; guarded by this. */
  private boolean reconnectScheduled;
  /** Whether a connection to the server was ever answered; guarded by this. */
  private boolean everAnswered;
  /**
   * The keepalive interval of a gRPC server's connections: the client's, doubled each time the
   * server says the pings come too often (GOAWAY {@code too_many_pings}), as gRPC's clients do.
   */
  private volatile long grpcKeepAliveMillis;

  ServerConnector(
      String host,
      int port,
      boolean grpc,
      Bootstrap bootstrap,
      ClientTransport.Settings settings,
      ClientTransport transport,
      Runnable disconnected) {
    this.host = host;
    this.disconnected = disconnected;
    this.port = port;
    this.grpc = grpc;
    this.address =
        settings.inProcessName != null
            ? "in-process server '" + host + "'"
            : (grpc ? GRPC_SCHEME : "")
                + (host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port);
    this.bootstrap = bootstrap;
    this.settings = settings;
    this.transport = transport;
    this.backoff = new Backoff(settings.initialBackoffMillis, settings.maxBackoffMillis);
    this.grpcKeepAliveMillis = settings.keepAliveIntervalMillis;
    if (grpc) {
      settings.grpcTls(); // made here, not on an event loop in a connection's initializer
    }
  }

  /** The keepalive interval of this gRPC server's next connection. */
  long grpcKeepAliveMillis() {
    return grpcKeepAliveMillis;
  }

  /** The server refused pings this frequent: doubles the interval; returns the new one. */
  synchronized long slowGrpcKeepAlive() {
    grpcKeepAliveMillis = Math.min(grpcKeepAliveMillis * 2, TimeUnit.HOURS.toMillis(2));
    return grpcKeepAliveMillis;
  }

  @Override
  public boolean acceptsCalls() {
    return !closed
        && goingAway == null
        && (lastFailure == null || System.nanoTime() - retryAtNanos >= 0);
  }

  @Override
  public EndpointStatus.State linkState() {
    if (goingAway != null) {
      return EndpointStatus.State.GOING_AWAY;
    }
    return closed || lastFailure != null
        ? EndpointStatus.State.UNREACHABLE
        : EndpointStatus.State.AVAILABLE;
  }

  @Override
  public synchronized void reconnectNow() {
    backoff.reset();
    lastFailure = null;
  }

  @Override
  public void retire() {
    Connection connection;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      closedReason = "the server left the service's list";
      connection = current;
      current = null;
    }
    if (connection != null) {
      retiring = connection;
      // Counted and closable by the client until its calls have ended.
      connection.drain(closedReason, () -> transport.forget(this));
    } else {
      transport.forget(this);
    }
  }

  @Override
  public String address() {
    return address;
  }

  /** One of this connector's connections opened (TCP); for the client's count. */
  void connectionOpened() {
    transport.connectionOpened();
  }

  /** A connection counted by {@link #connectionOpened()} closed. */
  void connectionClosed() {
    transport.connectionClosed();
  }

  @Override
  public void send(PendingCall call) {
    Connection connection = current;
    if (connection == null || !connection.isUsable()) {
      connection = connection(call);
    }
    connection.send(call);
  }

  /** Calls in flight on the current connection. */
  int pendingCount() {
    Connection connection = current;
    Connection old = retiring;
    return (connection == null ? 0 : connection.pendingCount())
        + (old == null ? 0 : old.pendingCount());
  }

  private synchronized Connection connection(PendingCall call) {
    if (closed) {
      throw UnavailableException.notProcessed(
          call.model().displayName() + " was not sent to " + address + ": "
              + (closedReason != null ? closedReason : "the client is closed"));
    }
    Connection connection = current;
    if (connection != null && connection.isUsable()) {
      return connection;
    }
    long wait = retryAtNanos - System.nanoTime();
    if (lastFailure != null && wait > 0) {
      throw UnavailableException.notProcessed(
          call.model().displayName() + " was not sent to " + address + ": reconnecting in "
              + TimeUnit.NANOSECONDS.toMillis(wait) + " ms after: " + lastFailure.getMessage(),
          lastFailure);
    }
    Connection fresh = newConnection(false);
    open(fresh, bootstrap.clone());
    current = fresh;
    return fresh;
  }

  /** A connection in the server's protocol, not yet connected; a probe's if {@code probe}. */
  private Connection newConnection(boolean probe) {
    return grpc
        ? new GrpcConnection(this, settings, host, port, probe)
        : new ClientConnection(this, settings, probe);
  }

  /** Builds {@code fresh}'s pipeline and starts connecting it with {@code bootstrap}, a copy. */
  private void open(Connection fresh, Bootstrap bootstrap) {
    ChannelFuture connect =
        bootstrap
            .handler(fresh.initializer(host, port))
            .connect(
                settings.inProcessName != null
                    ? InProcess.address(host)
                    : InetSocketAddress.createUnresolved(host, port));
    fresh.connecting(connect);
  }

  @Override
  public CompletableFuture<Void> probe() {
    Connection fresh = newConnection(true);
    CompletableFuture<Void> answered = fresh.probe();
    synchronized (this) {
      if (closed) {
        return CompletableFuture.failedFuture(
            UnavailableException.notProcessed("not probed: " + closedReason));
      }
      open(fresh, bootstrap.clone());
    }
    return answered.thenRun(() -> adopt(fresh));
  }

  /**
   * A probe's connection was answered: it becomes the connection for the next calls, unless there
   * is a usable one already; the reconnect backoff starts over either way.
   */
  private void adopt(Connection probed) {
    boolean keep;
    synchronized (this) {
      answered();
      keep = !closed && (current == null || !current.isUsable());
      if (keep) {
        current = probed;
      }
    }
    if (!keep) {
      probed.close("a usable connection exists already");
    }
  }

  /** The connection is up: the backoff starts over. */
  synchronized void connected() {
    answered();
  }

  /** A connection was answered: the server is available again, and the backoff starts over. */
  private void answered() {
    backoff.reset();
    everAnswered = true;
    if (lastFailure != null || goingAway != null) {
      logger.info("RPCX server {} answers again", address);
    }
    lastFailure = null;
    goingAway = null;
  }

  /**
   * A connection attempt failed: the server is unreachable, and the next attempt, in the
   * background or by a call, waits for the backoff.
   */
  void connectFailed(Connection connection, RpcxException cause) {
    recordFailure(connection, cause);
    disconnected.run();
  }

  private synchronized void recordFailure(Connection connection, RpcxException cause) {
    if (current == connection) {
      current = null;
    }
    long delay = backoff.nextDelayNanos();
    retryAtNanos = System.nanoTime() + delay;
    if (lastFailure == null && !closed) {
      String said = goingAway;
      if (said != null) {
        logger.info(
            "RPCX server {}, which said it was going away, is gone: {}; reconnecting in the"
                + " background (next attempt in {} ms)",
            address, cause.getMessage(), TimeUnit.NANOSECONDS.toMillis(delay));
      } else if (everAnswered) {
        logger.warn(
            "RPCX server {} is unreachable: {}; no calls go to it until it answers again"
                + " (reconnecting in the background, next attempt in {} ms)",
            address, cause.getMessage(), TimeUnit.NANOSECONDS.toMillis(delay));
      } else {
        // Never reached: the call that tried says why; a log line would say it twice.
        logger.info(
            "RPCX server {} is unreachable: {}; reconnecting in the background (next attempt in"
                + " {} ms)",
            address, cause.getMessage(), TimeUnit.NANOSECONDS.toMillis(delay));
      }
    }
    lastFailure = cause;
    goingAway = null;
    scheduleReconnect(connection, delay);
  }

  /**
   * The server retired {@code connection} and may keep serving: if it is the current one, the next
   * call opens another, and one is opened in the background too, so that a server that is in fact
   * gone is found unreachable without a call to find out. {@code serverStays}: the server said so
   * (RPCX's GOAWAY of that connection only: its maximum age, or idle), and the background one is
   * opened at once; else (a gRPC server's GOAWAY, which does not say) after the reconnect backoff,
   * by when a server that stops has closed its port.
   */
  void retired(Connection connection, String message, boolean serverStays) {
    boolean current;
    synchronized (this) {
      current = this.current == connection;
      if (current) {
        this.current = null;
        scheduleReconnect(connection, serverStays ? 0 : backoff.nextDelayNanos());
      }
    }
    if (current) {
      logger.debug("The server at {} retired the connection ({}): the next call opens another",
          address, message);
      disconnected.run();
    }
  }

  /**
   * The server sent GOAWAY on {@code connection}: if it is the current one, the server is going
   * away from now on (no new call goes to it while another server may take it), and the connector
   * reconnects after its backoff, by when a server that stops has closed its port.
   */
  void goingAway(Connection connection, String message) {
    if (markGoingAway(connection, message)) {
      disconnected.run();
    }
  }

  /** Whether {@code connection} was the current one, which it no longer is. */
  private synchronized boolean markGoingAway(Connection connection, String message) {
    if (current != connection) {
      return false; // a probe's, or one already replaced
    }
    current = null;
    if (closed) {
      return true;
    }
    goingAway = message;
    logger.info(
        "RPCX server {} is going away ({}): no new calls go to it until it answers again",
        address, message);
    scheduleReconnect(connection, backoff.nextDelayNanos());
    return true;
  }

  /**
   * {@code connection}, whose handshake was done, closed; {@code drained} if it had been told to
   * go away or retired. Closed any other way (the server crashed, the network failed), the current
   * connection is replaced at once, so that a server that is gone is reported so at once.
   */
  void closed(Connection connection, boolean drained) {
    if (forget(connection, drained)) {
      disconnected.run();
    }
  }

  /** Whether {@code connection} was the current one, which it no longer is. */
  private synchronized boolean forget(Connection connection, boolean drained) {
    if (current != connection) {
      return false;
    }
    current = null;
    if (!drained && !closed) {
      logger.debug("The connection to {} closed; reconnecting", address);
      scheduleReconnect(connection, 0);
    }
    return true;
  }

  /**
   * Connects in {@code delayNanos}, in the background, unless a connection is usable by then; timed
   * on the event loop of {@code previous}, the connection that failed or closed.
   */
  private void scheduleReconnect(Connection previous, long delayNanos) {
    if (reconnectScheduled || closed) {
      return;
    }
    reconnectScheduled = true;
    EventLoop loop = previous.channel().eventLoop();
    try {
      loop.schedule(() -> reconnect(loop), delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      reconnectScheduled = false; // the client is closing
    }
  }

  /** Opens a connection on {@code loop} (the last one's: no thread more for an idle client). */
  private synchronized void reconnect(EventLoop loop) {
    reconnectScheduled = false;
    if (closed || (current != null && current.isUsable())) {
      return;
    }
    Connection fresh = newConnection(false);
    open(fresh, bootstrap.clone(loop));
    current = fresh;
  }

  /** Refuses new calls and closes the connection; its pending calls fail as unavailable. */
  synchronized void close() {
    closed = true;
    closedReason = "the client is closed";
    Connection connection = current;
    current = null;
    if (connection != null) {
      connection.close("the client is closed");
    }
    Connection old = retiring;
    if (old != null) {
      old.close("the client is closed");
    }
  }
}
