package io.rpcx.client.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.rpcx.client.internal.call.CallOwner;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.ReplyWriter;
import io.rpcx.core.internal.protocol.SchemaFrames;
import io.rpcx.core.internal.protocol.StreamFrames;
import io.rpcx.core.internal.transport.ControlFrames;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.FrameWrite;
import io.rpcx.core.internal.transport.Frames;
import io.rpcx.core.internal.transport.InboundMeter;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.QueuedWrite;
import io.rpcx.core.internal.transport.SchemaAnnouncements;
import io.rpcx.core.internal.transport.WriteQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One persistent, multiplexed connection to a server: its life from connecting through the RPCX
 * handshake (or a probe's PING) to draining (after GOAWAY or retirement) and closing, and the calls
 * it carries.
 *
 * <p>Any thread may {@link #send} a call: the request is encoded on the caller's thread ({@link
 * RequestFrames}) and queued; the event loop registers it among the {@link PendingCalls} (which
 * time it) and writes it, one flush per batch. Replies are matched by request id; stream frames
 * are {@link ClientStreamFrames}'. {@link KeepAlive} pings a silent server. When the connection
 * closes, every pending call fails at once with what {@link CallFailures} says; calls not yet
 * written fail as safe to retry.
 */
final class ClientConnection implements Connection, CallOwner {
  private static final Logger logger = LoggerFactory.getLogger(ClientConnection.class);

  private static final int CONNECTING = 0;
  private static final int ACTIVE = 1;
  private static final int DRAINING = 2;
  private static final int CLOSED = 3;

  private final ServerConnector connector;
  private final ClientTransport.Settings settings;
  private final CallFailures failures;
  private final AtomicInteger ids = new AtomicInteger();
  /** Calls written and not yet answered, by request id; event loop only. */
  private final PendingCalls pending = new PendingCalls();
  private final ClientStreamFrames streams = new ClientStreamFrames(this);
  private final SchemaAnnouncements announcements = new SchemaAnnouncements();
  private final PeerSchemas peerSchemas = new PeerSchemas();
  private volatile Channel channel;
  private volatile WriteQueue writes;
  private volatile int state = CONNECTING;
  private volatile RpcxException closeCause;
  /** The server sent GOAWAY or the connection was retired: it drains, nothing failed. */
  private volatile boolean drainedGracefully;
  private boolean handshakeDone;
  /** The TCP connection was established; event loop only. */
  private boolean active;
  /** Calls are written as they are queued (the handshake is done); set on the event loop. */
  private volatile boolean writing;
  private InboundMeter meter;
  private final KeepAlive keepAlive;
  /**
   * For a probe's connection: completed when the server answers its PING; until then the
   * connection's failures are the probe's, and do not touch the connector's reconnect backoff.
   */
  private final CompletableFuture<Void> probe;
  private final long probeNonce = ThreadLocalRandom.current().nextLong();

  /**
   * A connection not yet bound to a channel; see {@link ServerConnector}. A probe's connection
   * ({@code probe}) pings the server once the handshake is done.
   */
  ClientConnection(ServerConnector connector, ClientTransport.Settings settings, boolean probe) {
    this.connector = connector;
    this.settings = settings;
    this.failures = new CallFailures(connector.address());
    this.keepAlive =
        new KeepAlive(settings.keepAliveTimeoutMillis, settings.keepAliveWithoutCalls);
    this.probe = probe ? new CompletableFuture<>() : null;
  }

  @Override
  public ChannelHandler initializer(String host, int port) {
    return new ClientChannelInitializer(this, settings, host, port);
  }

  /** Completes when this probe's PING is answered; see {@link ServerConnector#probe()}. */
  @Override
  public CompletableFuture<Void> probe() {
    return probe;
  }

  /** Whether this is a probe's connection that has not been answered yet. */
  private boolean probing() {
    return probe != null && !probe.isDone();
  }

  /**
   * Binds the channel; called from the handler's {@code handlerAdded} (before any channel event) or
   * from {@link #connecting}, whichever comes first.
   */
  synchronized void bind(Channel channel) {
    if (this.channel == null) {
      this.writes = new WriteQueue(channel, false);
      this.channel = channel;
    }
  }

  /** Where replies received and not yet decoded are counted; set before the channel starts. */
  void meter(InboundMeter meter) {
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
    return pending.count();
  }

  @Override
  public void send(PendingCall call) {
    int id = ids.incrementAndGet();
    if (id == 0) {
      id = ids.incrementAndGet();
    }
    call.bind(this, id);
    ByteBuf frame = RequestFrames.encode(channel.alloc(), call, settings.maxFrameSize);
    int size = Frames.payloadSize(frame);
    call.sizeHints().request(size);
    call.encoded(size);
    OutboundCall outbound = new OutboundCall(call, frame, this);
    if (call.needsTimer() && !writing) {
      // It may wait for the connection and its handshake longer than its timeout: time it from
      // now. Once calls are written as they come, the pending calls time it on the event loop
      // instead, where that costs no wake-up.
      try {
        outbound.startDeadline(channel.eventLoop());
      } catch (RejectedExecutionException e) { // the event loop is gone: the client is closing
        frame.release();
        throw failures.notSentClientClosed(call);
      }
    }
    writes.enqueue(outbound);
  }

  /** On the event loop: registers the call and writes its request. */
  void write(OutboundCall outbound) {
    PendingCall call = outbound.call;
    if (call.isFinished()) {
      outbound.discard(); // timed out while waiting to be written
      return;
    }
    if (state != ACTIVE) {
      outbound.discard();
      if (drainedGracefully) {
        call.failUnsent(failures.notSent(call, closeCause)); // the server is fine: not its failure
      } else {
        call.fail(failures.notSent(call, closeCause));
      }
      return;
    }
    int id = call.requestId();
    if (pending.size() >= settings.maxConcurrentCalls) {
      outbound.discard();
      call.fail(
          new ResourceExhaustedException(
              call.model().displayName() + " was not sent: " + pending.size()
                  + " calls are already in flight on the connection to " + connector.address()
                  + " (limit " + settings.maxConcurrentCalls + ")"));
      return;
    }
    if (pending.contains(id)) {
      outbound.discard();
      call.fail(
          new InternalErrorException(
              "request id " + Integer.toUnsignedString(id)
                  + " is still in use on the connection to " + connector.address(), null));
      return;
    }
    pending.add(outbound, channel.eventLoop());
    announcements.write(channel, call.model().parameterSchemas(), outbound.frame);
  }

  /**
   * On the event loop: the deadline of an asynchronous call passed before its reply came. The
   * server is told ({@code STREAM_CANCEL}) at once, so that it stops serving a call nobody waits
   * for (a stream's server, not only when its own timer fires).
   */
  void expired(OutboundCall outbound) {
    PendingCall call = outbound.call;
    boolean written = pending.get(call.requestId()) == outbound;
    pending.expired(outbound);
    if (written && state != CLOSED) {
      streams.cancelExpired(call.requestId());
    }
    call.timeOut();
    closeIfDrained();
  }

  @Override
  public void abandon(PendingCall call, String reason) {
    if (channel != null) {
      streams.cancel(call, reason);
    }
  }

  @Override
  public void cancelStream(PendingCall call, String message) {
    if (channel != null) {
      streams.cancel(call, message);
    }
  }

  @Override
  public void sendCredit(PendingCall call, int messages) {
    streams.credit(call, messages);
  }

  @Override
  public boolean sendStreamMessage(PendingCall call, Object element) throws IOException {
    return streams.message(call, element, settings.maxFrameSize);
  }

  @Override
  public void sendStreamEnd(PendingCall call) {
    streams.end(call);
  }

  /** A control frame of plain fields, encoded at once. */
  ByteBuf control(byte type, Frames.PayloadWriter writer) {
    try {
      return Frames.encode(channel.alloc(), type, 16, Integer.MAX_VALUE, writer);
    } catch (IOException e) { // plain fields: no I/O
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public PeerSchemas peerSchemas() {
    return peerSchemas;
  }

  // Events from ClientConnectionHandler, all on the event loop.

  void onActive() {
    active = true;
    connector.connectionOpened();
    if (state == CONNECTING) {
      state = ACTIVE;
    }
    // Calls wait for the server's preface: written before it, a call could not be known unrun if
    // the connection then broke, and could be retried elsewhere while this server still runs it.
    closeIfDrained();
    if (settings.tls == null) {
      startHandshakeTimer();
    }
  }

  /**
   * With TLS: its handshake ended, with {@code failure} or {@code null}. The RPCX handshake gets
   * its own timeout from now, so a slow TLS handshake (a JVM's first takes a second or more) does
   * not eat into it; TLS has one of the same length, set on its handler. Other TLS failures come
   * as exceptions ({@link ClientConnectionHandler#exceptionCaught}).
   */
  void onTlsHandshake(Throwable failure) {
    if (failure == null) {
      startHandshakeTimer();
    } else if (failure instanceof SslHandshakeTimeoutException && state != CLOSED) {
      logger.warn(
          "Closing connection to {}: no TLS handshake within {} ms",
          connector.address(),
          settings.handshakeTimeoutMillis);
      closeWith(
          UnavailableException.notProcessed(
              "TLS with " + connector.address() + " failed: no TLS handshake within "
                  + settings.handshakeTimeoutMillis + " ms"));
    }
  }

  /** Closes the connection if the server's preface has not come within the handshake timeout. */
  private void startHandshakeTimer() {
    channel.eventLoop().schedule(
        () -> {
          if (!handshakeDone && state != CLOSED) {
            logger.warn(
                "Closing connection to {}: no RPCX handshake within {} ms",
                connector.address(),
                settings.handshakeTimeoutMillis);
            closeWith(
                UnavailableException.notProcessed(
                    connector.address() + " accepted the connection but completed no RPCX"
                        + " handshake within " + settings.handshakeTimeoutMillis + " ms"));
          }
        },
        settings.handshakeTimeoutMillis,
        TimeUnit.MILLISECONDS);
  }

  private void onConnectFailed(Throwable cause) {
    closeCause =
        UnavailableException.notProcessed(
            "cannot connect to " + connector.address() + ": "
                + (settings.inProcessName != null
                    ? "no server of that name runs in this JVM"
                    : CallFailures.describe(cause)), cause);
    state = CLOSED;
    if (probing()) {
      probe.completeExceptionally(closeCause);
    } else {
      connector.connectFailed(this, closeCause);
    }
    writes.start();
  }

  /** The server's preface arrived: the server speaks RPCX. */
  void onHandshakeDone() {
    handshakeDone = true;
    if (probing()) {
      channel.writeAndFlush(ControlFrames.ping(channel.alloc(), false, probeNonce));
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

  /** The server answered a PING with {@code data}. */
  void onPong(long data) {
    if (probe != null && data == probeNonce) {
      probe.complete(null);
    }
  }

  /** Any frame arrived: the server is alive. */
  void onRead() {
    keepAlive.onRead();
  }

  /**
   * On the event loop, after the frames of one read: each stream that received messages in it
   * hands them on, once.
   */
  void onReadComplete() {
    streams.readComplete();
  }

  /**
   * Nothing arrived for the keepalive interval: ping the server if calls are in flight, and close
   * the connection if nothing arrives within the keepalive timeout either.
   */
  void onReadIdle() {
    if (state == CLOSED) {
      return;
    }
    keepAlive.onReadIdle(
        channel,
        pending.size(),
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
                      + " within " + keepAlive.timeoutMillis() + " ms (paused or unreachable)", null));
        });
  }

  void onReply(ByteBuf payloadBuffer) {
    NettyPayload payload = new NettyPayload(payloadBuffer, meter);
    ReplyEnvelope envelope;
    try {
      envelope = ReplyEnvelope.parse(payload);
    } catch (ProtocolException e) {
      payload.release();
      closeWith(
          new InternalErrorException(
              "malformed reply from " + connector.address() + ": " + e.getMessage(), e));
      return;
    }
    OutboundCall outbound = pending.answered(envelope.requestId());
    if (outbound == null) {
      payload.release();
      logger.debug(
          "Discarding a reply from {} for request {}, which is not pending (timed out?)",
          connector.address(),
          Integer.toUnsignedString(envelope.requestId()));
      return;
    }
    outbound.call.reply(envelope, payload);
    closeIfDrained();
  }

  /** The connection's stream frames, both ways. */
  ClientStreamFrames streams() {
    return streams;
  }

  /** On the event loop: the server described how it numbers POJO fields. */
  void onSchema(ByteBuf payload) {
    try {
      SchemaFrames.read(new NettyPayload(payload), peerSchemas);
    } catch (ProtocolException e) {
      closeWith(
          new InternalErrorException(
              "invalid SCHEMA frame from " + connector.address() + ": " + e.getMessage(), e));
    } finally {
      payload.release();
    }
  }

  void onGoAway(String message, boolean connectionOnly) {
    if (state >= DRAINING) {
      return;
    }
    closeCause =
        UnavailableException.notProcessed(
            "the server at " + connector.address()
                + (connectionOnly ? " closes this connection: " : " is going away: ") + message);
    drainedGracefully = true;
    state = DRAINING;
    if (connectionOnly) {
      connector.retired(this, message, true);
    } else {
      connector.goingAway(this, message);
    }
    closeIfDrained();
  }

  /** Closes the connection because of {@code cause}, which the pending calls then fail with. */
  void closeWith(RpcxException cause) {
    if (closeCause == null || state < DRAINING) {
      closeCause = cause;
    }
    channel.close();
  }

  /** The connection broke (reset, for example). */
  void onIoFailure(IOException cause) {
    closeWith(
        handshakeDone
            ? UnavailableException.mayHaveRun(
                "the connection to " + connector.address() + " failed: "
                    + CallFailures.describe(cause), cause)
            : failures.notAnRpcxServer(CallFailures.describe(cause)));
  }

  void onInactive() {
    int previous = state;
    state = CLOSED;
    if (active) {
      connector.connectionClosed();
    }
    if (!handshakeDone && closeCause == null) {
      closeCause = failures.notAnRpcxServer(null);
    }
    if (probing()) {
      probe.completeExceptionally(
          closeCause != null
              ? closeCause
              : UnavailableException.notProcessed(
                  "the probe's connection to " + connector.address() + " closed"));
      writes.start();
      return; // a probe's connection carries no calls and leaves the connector as it was
    }
    if (handshakeDone || previous == DRAINING) {
      connector.closed(this, previous == DRAINING);
    } else {
      // Connected, but no RPCX handshake: as unreachable as a refused connection.
      connector.connectFailed(this, closeCause);
    }
    writes.start();
    if (pending.isEmpty()) {
      return;
    }
    RpcxException cause = closeCause;
    List<OutboundCall> calls = pending.removeAll();
    for (OutboundCall outbound : calls) {
      outbound.call.fail(
          failures.lostInFlight(outbound.call, cause, handshakeDone, previous == DRAINING));
    }
  }

  void closeIfDrained() {
    if (state == DRAINING && pending.isEmpty()) {
      channel.close();
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

  /** What calls on this connection fail with. */
  CallFailures failures() {
    return failures;
  }

  // For the connection's stream frames.

  /** Calls written and not yet answered; event loop only. */
  PendingCalls pending() {
    return pending;
  }

  @Override
  public Channel channel() {
    return channel;
  }

  WriteQueue writes() {
    return writes;
  }

  /** Where received frames not yet decoded are counted. */
  InboundMeter meter() {
    return meter;
  }

  /** The server's address, for messages. */
  String address() {
    return connector.address();
  }

  /** Whether the channel is not closed yet (frames may still be written). */
  boolean isOpen() {
    return state != CLOSED;
  }

  @Override
  public String toString() {
    return "connection to " + connector.address();
  }
}
