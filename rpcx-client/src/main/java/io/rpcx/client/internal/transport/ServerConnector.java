package io.rpcx.client.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.transport.InProcess;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One server address and the connection the client keeps to it, in the protocol the server speaks
 * there (RPCX's own, or gRPC). The connection is opened on the first call and replaced when it
 * closes or the server sends GOAWAY; calls made meanwhile wait in the new connection's queue.
 * After a failed connection attempt, the next one waits for an exponential backoff with jitter;
 * calls made in that time fail at once as unavailable (safe to retry elsewhere) instead of waiting.
 * Thread-safe.
 */
final class ServerConnector implements ServerLink {
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
    return !closed && (lastFailure == null || System.nanoTime() - retryAtNanos >= 0);
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
    open(fresh);
    current = fresh;
    return fresh;
  }

  /** A connection in the server's protocol, not yet connected; a probe's if {@code probe}. */
  private Connection newConnection(boolean probe) {
    return grpc
        ? new GrpcConnection(this, settings, host, port, probe)
        : new ClientConnection(this, settings, probe);
  }

  /** Builds {@code fresh}'s pipeline and starts connecting it. */
  private void open(Connection fresh) {
    ChannelFuture connect =
        bootstrap
            .clone()
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
      open(fresh);
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
      backoff.reset();
      lastFailure = null;
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
    backoff.reset();
    lastFailure = null;
  }

  /** A connection attempt failed: the next waits for the backoff. */
  void connectFailed(Connection connection, RpcxException cause) {
    synchronized (this) {
      if (current == connection) {
        current = null;
      }
      retryAtNanos = System.nanoTime() + backoff.nextDelayNanos();
      lastFailure = cause;
    }
    disconnected.run();
  }

  /**
   * Forgets {@code connection} if it is the current one (it closed, or the server sent GOAWAY), so
   * the next call opens a new one.
   */
  void detach(Connection connection) {
    boolean lost;
    synchronized (this) {
      lost = current == connection;
      if (lost) {
        current = null;
      }
    }
    if (lost) {
      disconnected.run();
    }
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
