package io.rpcx.client.internal.transport;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.util.AsciiString;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.stream.ReadArrivals;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.QueuedWrite;
import io.rpcx.core.internal.transport.WriteQueue;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/2 connection to a gRPC server (docs/GRPC.md, "Calling gRPC servers from RPCX"), with
 * the life an RPCX connection has ({@link Connection}): cleartext HTTP/2 with prior knowledge, or
 * TLS that negotiated {@code h2} by ALPN; the server's SETTINGS are its handshake, and no call is
 * written before them; keepalive PINGs while calls are in flight; GOAWAY drains it (calls the
 * server never took are failed as not processed, so they are retried elsewhere); closing fails
 * what is still in flight as {@link CallFailures} says.
 *
 * <p>Any thread may {@link #send} a call: its {@link GrpcClientStream} is encoded on the caller's
 * thread and queued; the event loop opens its HTTP/2 stream and writes it, one flush per batch.
 * The streams take their frames from {@link GrpcClientHandler}, Netty's HTTP/2 codec under this.
 */
final class GrpcConnection implements Connection {
  private static final Logger logger = LoggerFactory.getLogger(GrpcConnection.class);

  /** The ALPN protocol of HTTP/2 over TLS. */
  static final String ALPN_H2 = "h2";

  private static final int CONNECTING = 0;
  private static final int ACTIVE = 1;
  private static final int DRAINING = 2;
  private static final int CLOSED = 3;

  private final ServerConnector connector;
  private final ClientTransport.Settings settings;
  private final CallFailures failures;
  private final AsciiString authority;
  private final AsciiString scheme;
  private final KeepAlive keepAlive;
  /** The streams that received messages in the current read; event loop only. */
  private final ReadArrivals arrivals = new ReadArrivals();
  private volatile Channel channel;
  private volatile WriteQueue writes;
  private volatile GrpcClientHandler handler;
  private InboundMeter meter;
  private volatile int state = CONNECTING;
  private volatile RpcxException closeCause;
  /** The server sent GOAWAY or the connection was retired: it drains, nothing failed. */
  private volatile boolean drainedGracefully;
  /** Calls whose stream is open, for any thread to read; written on the event loop. */
  private volatile int streams;
  /** Bytes of incomplete messages over all streams; event loop only. */
  private long partialBytes;
  private boolean handshakeDone;
  private boolean active;
  /** The connection was draining when it closed: what was in flight was lost, not retired. */
  private boolean closedDraining;
  /** Calls are written as they are queued (the handshake is done); set on the event loop. */
  private volatile boolean writing;
  /** The last stream the server said it took in its GOAWAY; streams after it were not processed. */
  private int goAwayLastStreamId = Integer.MAX_VALUE;
  private final CompletableFuture<Void> probe;
  private final long probeNonce = ThreadLocalRandom.current().nextLong();

  GrpcConnection(
      ServerConnector connector,
      ClientTransport.Settings settings,
      String host,
      int port,
      boolean probe) {
    this.connector = connector;
    this.settings = settings;
    this.failures = new CallFailures(connector.address());
    this.authority =
        AsciiString.of(host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port);
    this.scheme = AsciiString.cached(settings.tls != null ? "https" : "http");
    this.keepAlive =
        new KeepAlive(settings.keepAliveTimeoutMillis, settings.keepAliveWithoutCalls);
    this.probe = probe ? new CompletableFuture<>() : null;
  }

  @Override
  public ChannelHandler initializer(String host, int port) {
    return new GrpcChannelInitializer(this, settings, host, port);
  }

  @Override
  public CompletableFuture<Void> probe() {
    return probe;
  }

  private boolean probing() {
    return probe != null && !probe.isDone();
  }

  /** Binds the channel; from {@link #connecting} or the initializer, whichever comes first. */
  synchronized void bind(Channel channel) {
    if (this.channel == null) {
      this.writes = new WriteQueue(channel, false);
      this.channel = channel;
    }
  }

  /** The HTTP/2 handler and the inbound meter of the channel; set before the channel starts. */
  void handler(GrpcClientHandler handler, InboundMeter meter) {
    this.handler = handler;
    this.meter = meter;
  }

  @Override
  public void connecting(ChannelFuture connectFuture) {
    bind(connectFuture.channel());
    Connection.onConnectFailure(connectFuture, this::onConnectFailed);
  }

  @Override
  public boolean isUsable() {
    int current = state;
    return current == CONNECTING || current == ACTIVE;
  }

  @Override
  public int pendingCount() {
    return streams;
  }

  @Override
  public void send(PendingCall call) {
    GrpcClientStream stream = GrpcClientStream.of(this, call);
    call.bind(stream, 0); // the HTTP/2 stream's id is given when it is written
    if (call.needsTimer() && !writing) {
      // It may wait for the connection longer than its timeout: timed from now (see
      // ClientConnection#send).
      try {
        stream.startDeadline(channel.eventLoop());
      } catch (RejectedExecutionException e) {
        stream.discard();
        throw failures.notSentClientClosed(call);
      }
    }
    writes.enqueue(stream);
  }

  /** On the event loop: opens {@code stream}'s HTTP/2 stream and writes its request. */
  void write(GrpcClientStream stream) {
    PendingCall call = stream.call;
    if (call.isFinished()) {
      stream.discard(); // timed out or given up while waiting to be written
      return;
    }
    if (state != ACTIVE) {
      stream.discard();
      if (drainedGracefully) {
        call.failUnsent(failures.notSent(call, closeCause)); // the server is fine: not its failure
      } else {
        call.fail(failures.notSent(call, closeCause));
      }
      return;
    }
    if (streams >= settings.maxConcurrentCalls) {
      stream.discard();
      call.fail(
          new ResourceExhaustedException(
              call.model().displayName() + " was not sent: " + streams
                  + " calls are already in flight on the connection to " + connector.address()
                  + " (limit " + settings.maxConcurrentCalls + ")"));
      return;
    }
    int id = handler.nextStreamId();
    if (id < 0) {
      stream.discard();
      if (handler.goAwayReceived() || id == GrpcClientHandler.NO_STREAM_IDS) {
        call.failUnsent(
            failures.notSent(
                call,
                UnavailableException.notProcessed(
                    handler.goAwayReceived()
                        ? "the server at " + connector.address() + " is going away"
                        : "the connection to " + connector.address()
                            + " has used up its stream ids")));
        retire();
      } else {
        call.fail(
            new ResourceExhaustedException(
                call.model().displayName() + " was not sent: the server at "
                    + connector.address() + " allows " + handler.maxStreams()
                    + " concurrent calls on a connection, and that many are in flight"));
      }
      return;
    }
    stream.start(handler, id);
  }

  /** A stream was opened. */
  void registered() {
    streams++;
  }

  /** A stream's call ended; the connection may be drained now. */
  void unregistered() {
    streams--;
    closeIfDrained();
  }

  /** Runs {@code task} on the event loop, behind the writes queued, then flushes. */
  void onLoop(Runnable task) {
    writes.enqueue(
        new QueuedWrite() {
          @Override
          public void writeTo(Channel ignored) {
            task.run();
          }

          @Override
          public void abort(Throwable cause) {}
        });
  }

  /** Queues {@code write} behind the writes queued. */
  void onLoop(QueuedWrite write) {
    writes.enqueue(write);
  }

  /** Flushes what was written outside the write queue (a timer's reset). On the event loop. */
  void flush() {
    Channel current = channel;
    if (current != null) {
      current.flush();
    }
  }

  // What its streams use.

  GrpcClientHandler handler() {
    return handler;
  }

  ByteBufAllocator alloc() {
    return channel.alloc();
  }

  InboundMeter meter() {
    return meter;
  }

  int maxMessageSize() {
    return settings.maxFrameSize;
  }

  AsciiString authority() {
    return authority;
  }

  AsciiString scheme() {
    return scheme;
  }

  /** The path of {@code call}'s method, as its service's export names it. */
  AsciiString path(PendingCall call) {
    return settings.grpcPath(call);
  }

  CallFailures failures() {
    return failures;
  }

  String address() {
    return connector.address();
  }

  /** {@code receiver}'s stream kept messages in this read: handed on once the read is complete. */
  void arrived(ReadArrivals.Receiver receiver) {
    arrivals.add(receiver);
  }

  /** Hands on, now, what streams kept outside a read (credit let held messages go). */
  void handOn() {
    arrivals.readComplete();
  }

  /** A stream's incomplete message grew (or shrank) by {@code delta} bytes. */
  void partialChanged(long delta) {
    partialBytes += delta;
  }

  /** The bytes of incomplete messages, for the inbound budget. */
  long partialBytes() {
    return partialBytes;
  }

  /**
   * What a call whose stream closed before its end fails with: not processed if the server's
   * GOAWAY said it never took it, or if the connection closed before the server spoke HTTP/2; else
   * lost in flight.
   */
  RpcxException lostFailure(PendingCall call, int streamId) {
    if (streamId > goAwayLastStreamId) {
      return UnavailableException.notProcessed(
          call.model().displayName() + " was not processed: the server at " + connector.address()
              + " is going away and did not take it");
    }
    return failures.lostInFlight(call, closeCause, handshakeDone, closedDraining);
  }

  /** The keepalive interval of this connection's server. */
  long keepAliveIntervalMillis() {
    return connector.grpcKeepAliveMillis();
  }

  // Events from GrpcClientHandler, on the event loop.

  void onActive() {
    active = true;
    connector.connectionOpened();
    if (state == CONNECTING) {
      state = ACTIVE;
    }
    closeIfDrained();
    channel.eventLoop().schedule(
        () -> {
          if (!handshakeDone && state != CLOSED) {
            logger.warn(
                "Closing connection to {}: no HTTP/2 SETTINGS within {} ms",
                connector.address(),
                settings.handshakeTimeoutMillis);
            closeWith(
                UnavailableException.notProcessed(
                    connector.address() + " accepted the connection but sent no HTTP/2 SETTINGS"
                        + " within " + settings.handshakeTimeoutMillis + " ms (is it a gRPC"
                        + " server?)"));
          }
        },
        settings.handshakeTimeoutMillis,
        TimeUnit.MILLISECONDS);
  }

  private void onConnectFailed(Throwable cause) {
    closeCause =
        UnavailableException.notProcessed(
            "cannot connect to " + connector.address() + ": " + CallFailures.describe(cause),
            cause);
    state = CLOSED;
    if (probing()) {
      probe.completeExceptionally(closeCause);
    } else {
      connector.connectFailed(this, closeCause);
    }
    writes.start();
  }

  /** The server's first SETTINGS arrived: it speaks HTTP/2. */
  void onHandshakeDone() {
    if (handshakeDone) {
      return;
    }
    handshakeDone = true;
    if (probing()) {
      handler.ping(probeNonce);
      channel.eventLoop().schedule(
          () -> {
            if (probing()) {
              closeWith(
                  UnavailableException.notProcessed(
                      connector.address() + " did not answer a probe's PING within "
                          + settings.handshakeTimeoutMillis + " ms"));
            }
          },
          settings.handshakeTimeoutMillis,
          TimeUnit.MILLISECONDS);
    } else {
      connector.connected();
    }
    writing = true;
    writes.start();
  }

  void onPingAck(long data) {
    if (probe != null && data == probeNonce) {
      probe.complete(null);
    }
  }

  void onRead() {
    keepAlive.onRead();
  }

  void onReadComplete() {
    arrivals.readComplete();
  }

  /**
   * Nothing arrived for the keepalive interval: while calls are in flight (as gRPC clients do, so
   * that servers which limit pings on idle connections are not provoked), ping the server, and
   * close the connection if nothing arrives within the timeout.
   */
  void onReadIdle() {
    if (state == CLOSED) {
      return;
    }
    keepAlive.onReadIdle(
        channel,
        streams,
        handler::ping,
        () -> {
          if (state == CLOSED) {
            return;
          }
          logger.warn(
              "Closing connection to {}: no answer to a keepalive ping within {} ms",
              connector.address(),
              keepAlive.timeoutMillis());
          closeWith(
              UnavailableException.mayHaveRun(
                  "the server at " + connector.address() + " did not answer a keepalive ping"
                      + " within " + keepAlive.timeoutMillis() + " ms (paused or unreachable)",
                  null));
        });
  }

  /**
   * The server sent GOAWAY: streams after {@code lastStreamId} were not processed (Netty closes
   * them next, and they fail as such); the others go on, and no new call is sent here.
   */
  void onGoAway(int lastStreamId, long errorCode, String debug) {
    goAwayLastStreamId = Math.min(goAwayLastStreamId, lastStreamId);
    if (errorCode == Http2Error.ENHANCE_YOUR_CALM.code()
        && "too_many_pings".equals(debug)) {
      long slower = connector.slowGrpcKeepAlive();
      logger.warn(
          "{} sent GOAWAY: too many pings; keepalive pings to it now go every {} ms (set"
              + " RpcxClient.Builder.keepAlive to at least the server's permitted interval)",
          connector.address(),
          slower);
    }
    if (state >= DRAINING) {
      return;
    }
    closeCause =
        UnavailableException.notProcessed(
            "the server at " + connector.address() + " is going away"
                + (debug.isEmpty() ? "" : ": " + debug));
    drainedGracefully = errorCode == Http2Error.NO_ERROR.code();
    state = DRAINING;
    // gRPC's GOAWAY is of the connection: the server may stay (its maximum connection age), and
    // the next call opens another; a server that is gone refuses it, and is then unreachable.
    connector.retired(this, "GOAWAY" + (debug.isEmpty() ? "" : " " + debug), false);
    closeIfDrained();
  }

  /** The connection failed ({@code cause}); the pending calls fail with it. */
  void closeWith(RpcxException cause) {
    if (closeCause == null || state < DRAINING) {
      closeCause = cause;
    }
    channel.close();
  }

  void onIoFailure(IOException cause) {
    closeWith(
        handshakeDone
            ? UnavailableException.mayHaveRun(
                "the connection to " + connector.address() + " failed: "
                    + CallFailures.describe(cause),
                cause)
            : failures.notAGrpcServer(CallFailures.describe(cause)));
  }

  /** HTTP/2 failed on the connection ({@code problem}): it closes, with GOAWAY. */
  void onProtocolError(String problem) {
    if (closeCause == null || state < DRAINING) {
      closeCause =
          new InternalErrorException(
              "the HTTP/2 connection to " + connector.address() + " failed: " + problem, null);
    }
  }

  /**
   * The channel closed: set the cause the calls still in flight fail with ({@link #lostFailure}),
   * before Netty closes their streams; calls not yet written fail as not sent.
   */
  void onInactive() {
    int previous = state;
    state = CLOSED;
    // A graceful drain's reason (a retirement, a GOAWAY with NO_ERROR) is not why calls still in
    // flight were lost; a GOAWAY with an error (too many pings, say) is.
    closedDraining = previous == DRAINING && drainedGracefully;
    if (active) {
      connector.connectionClosed();
    }
    if (!handshakeDone && closeCause == null) {
      closeCause = failures.notAGrpcServer(null);
    }
    if (meter != null) {
      meter.closed();
    }
    if (probing()) {
      probe.completeExceptionally(
          closeCause != null
              ? closeCause
              : UnavailableException.notProcessed(
                  "the probe's connection to " + connector.address() + " closed"));
      writes.start();
      return;
    }
    if (handshakeDone || previous == DRAINING) {
      connector.closed(this, previous == DRAINING);
    } else {
      connector.connectFailed(this, closeCause);
    }
    writes.start();
  }

  @Override
  public Channel channel() {
    return channel;
  }

  void closeIfDrained() {
    if (state == DRAINING && streams == 0) {
      channel.close();
    }
  }

  /** Takes no new calls here. Closes once the calls in flight have ended. On the event loop. */
  private void retire() {
    if (state < DRAINING) {
      drainedGracefully = true;
      state = DRAINING;
      connector.retired(this, "retired", false);
      closeIfDrained();
    }
  }

  @Override
  public void drain(String reason, Runnable onClosed) {
    Channel current = channel;
    if (current == null) {
      onClosed.run();
      return;
    }
    current.closeFuture().addListener(future -> onClosed.run());
    current.eventLoop().execute(
        () -> {
          if (state >= DRAINING) {
            return;
          }
          closeCause =
              UnavailableException.notProcessed(
                  "the connection to " + connector.address() + " was retired: " + reason);
          drainedGracefully = true;
          state = DRAINING;
          closeIfDrained();
        });
  }

  @Override
  public void close(String reason) {
    Channel current = channel;
    if (current != null) {
      current.eventLoop().execute(() -> closeWith(UnavailableException.mayHaveRun(reason, null)));
    }
  }

  /**
   * Why {@code key} with {@code value} cannot be a gRPC request header, or {@code null}: gRPC's
   * header names are {@code [0-9a-z_.-]}, and its text values printable ASCII.
   */
  static String metadataProblem(String key, String value) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.')) {
        return "is not a gRPC header name (characters 0-9 a-z _ - .)";
      }
    }
    if (key.endsWith("-bin")) {
      return "names binary metadata (-bin), which RPCX does not send";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return "has a value gRPC cannot carry: character " + (int) c + " at " + i
            + " (gRPC header values are printable ASCII)";
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "gRPC connection to " + connector.address();
  }
}
