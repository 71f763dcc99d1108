package io.rpcx.client.internal.transport;

import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.util.collection.IntObjectHashMap;
import io.rpcx.client.internal.call.CallOwner;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.SizeCache;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.SchemaFrames;
import io.rpcx.core.internal.transport.ControlFrames;
import io.rpcx.core.internal.transport.Frames;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.QueuedWrite;
import io.rpcx.core.internal.transport.WriteQueue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One persistent, multiplexed connection to a server, and the calls pending on it.
 *
 * <p>Any thread may {@link #send} a call: the request is encoded on the caller's thread and queued;
 * the event loop registers it among the pending calls (an int-keyed map owned by this connection
 * and touched only by its event loop) and writes it, one flush per batch. Replies are matched by
 * request id. When the connection closes, every pending call fails at once; calls not yet written
 * fail as safe to retry.
 */
final class ClientConnection implements CallOwner {
  private static final Logger logger = LoggerFactory.getLogger(ClientConnection.class);

  private static final int CONNECTING = 0;
  private static final int ACTIVE = 1;
  private static final int DRAINING = 2;
  private static final int CLOSED = 3;

  private final Endpoint endpoint;
  private final int maxFrameSize;
  private final int maxConcurrentCalls;
  private final AtomicInteger ids = new AtomicInteger();
  private final IntObjectHashMap<PendingCall> pending = new IntObjectHashMap<>();
  /** Methods whose parameter schemas were sent on this connection (event loop only). */
  private final BitSet schemasSent = new BitSet();
  private final PeerSchemas peerSchemas = new PeerSchemas();
  private volatile Channel channel;
  private volatile WriteQueue writes;
  private volatile int state = CONNECTING;
  private volatile RpcxException closeCause;

  /** A connection not yet bound to a channel; see {@link Endpoint}. */
  ClientConnection(Endpoint endpoint, int maxFrameSize, int maxConcurrentCalls) {
    this.endpoint = endpoint;
    this.maxFrameSize = maxFrameSize;
    this.maxConcurrentCalls = maxConcurrentCalls;
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

  /** Follows the connection attempt; a failure fails every call queued meanwhile. */
  void connecting(ChannelFuture connectFuture) {
    bind(connectFuture.channel());
    connectFuture.addListener(
        future -> {
          if (!future.isSuccess()) {
            onConnectFailed(future.cause()); // listeners run on the event loop
          }
        });
  }

  /** Whether new calls may be sent on this connection. */
  boolean isUsable() {
    int current = state;
    return current == CONNECTING || current == ACTIVE;
  }

  /** Encodes {@code call} on the calling thread and queues it; see {@link Endpoint#send}. */
  void send(PendingCall call) {
    int id = ids.incrementAndGet();
    if (id == 0) {
      id = ids.incrementAndGet();
    }
    call.bind(this, id);
    SizeCache sizes = new SizeCache();
    int size;
    try {
      size = call.encodedSize(sizes);
    } catch (CodecException | RuntimeException e) {
      throw encodingFailed(call, e);
    }
    if (size > maxFrameSize - FrameType.TYPE_AND_FLAGS_SIZE) {
      throw new ResourceExhaustedException(
          "the request of " + call.model().displayName() + " is " + size
              + " bytes, over the frame limit of " + maxFrameSize + " bytes");
    }
    ByteBuf frame = Frames.allocate(channel.alloc(), FrameType.REQUEST, size);
    try {
      CodedOutputStream out = Frames.payloadOutput(frame, size);
      call.writeTo(out, sizes);
      Frames.finishPayload(frame, out, size);
    } catch (IOException | RuntimeException e) {
      frame.release();
      throw encodingFailed(call, e);
    }
    writes.enqueue(new OutboundCall(call, frame));
  }

  private static BadRequestException encodingFailed(PendingCall call, Exception e) {
    return new BadRequestException(
        "cannot encode the arguments of " + call.model().displayName() + ": " + e.getMessage(), e);
  }

  /** A call and its encoded request, waiting in the write queue. */
  private final class OutboundCall implements QueuedWrite {
    private final PendingCall call;
    private final ByteBuf frame;

    OutboundCall(PendingCall call, ByteBuf frame) {
      this.call = call;
      this.frame = frame;
    }

    @Override
    public void writeTo(Channel ignored) {
      write(call, frame);
    }

    @Override
    public void abort(Throwable cause) {
      frame.release();
      call.onFailure(
          new UnavailableException(
              call.model().displayName() + " was not sent to " + endpoint.address()
                  + ": the client is closed",
              true,
              null));
    }
  }

  /** On the event loop: registers the call and writes its request. */
  private void write(PendingCall call, ByteBuf frame) {
    if (state != ACTIVE) {
      frame.release();
      call.onFailure(notSent(call));
      return;
    }
    int id = call.requestId();
    if (pending.size() >= maxConcurrentCalls) {
      frame.release();
      call.onFailure(
          new ResourceExhaustedException(
              call.model().displayName() + " rejected: " + pending.size()
                  + " calls are already in flight on the connection to " + endpoint.address()
                  + " (limit " + maxConcurrentCalls + ")"));
      return;
    }
    if (pending.containsKey(id)) {
      frame.release();
      call.onFailure(
          new InternalErrorException(
              "request id " + Integer.toUnsignedString(id) + " is still in use on the connection to "
                  + endpoint.address(), null));
      return;
    }
    pending.put(id, call);
    if (call.needsTimer()) {
      call.timer(
          channel.eventLoop().schedule(
              () -> timedOut(call), Math.max(0, call.remainingNanos()), TimeUnit.NANOSECONDS));
    }
    byte[] schemas = call.model().parameterSchemas();
    if (schemas != null && !schemasSent.get(call.model().id())) {
      schemasSent.set(call.model().id());
      channel.write(ControlFrames.schema(channel.alloc(), schemas), channel.voidPromise());
    }
    channel.write(frame, channel.voidPromise());
  }

  @Override
  public PeerSchemas peerSchemas() {
    return peerSchemas;
  }

  /** On the event loop: the server described how it numbers POJO fields. */
  void onSchema(ByteBuf payload) {
    try {
      SchemaFrames.read(payload.nioBuffer(), peerSchemas);
    } catch (ProtocolException e) {
      closeWith(
          new InternalErrorException(
              "invalid SCHEMA frame from " + endpoint.address() + ": " + e.getMessage(), e));
    } finally {
      payload.release();
    }
  }

  private RpcxException notSent(PendingCall call) {
    RpcxException cause = closeCause;
    return new UnavailableException(
        call.model().displayName() + " was not sent to " + endpoint.address() + ": "
            + (cause != null ? cause.getMessage() : "the connection is closed"),
        true,
        cause);
  }

  private void timedOut(PendingCall call) {
    if (pending.get(call.requestId()) == call) {
      pending.remove(call.requestId());
      call.onFailure(call.timeoutException());
      closeIfDrained();
    }
  }

  @Override
  public void abandon(PendingCall call) {
    channel.eventLoop().execute(
        () -> {
          if (pending.get(call.requestId()) == call) {
            pending.remove(call.requestId());
            call.cancelTimer();
            closeIfDrained();
          }
        });
  }

  // Events from ClientConnectionHandler, all on the event loop.

  void onActive() {
    state = ACTIVE;
    writes.start();
  }

  private void onConnectFailed(Throwable cause) {
    closeCause =
        new UnavailableException(
            "cannot connect to " + endpoint.address() + ": " + describe(cause), true, cause);
    state = CLOSED;
    endpoint.detach(this);
    writes.start();
  }

  void onReply(ByteBuf payloadBuffer) {
    NettyPayload payload = new NettyPayload(payloadBuffer);
    ReplyEnvelope envelope;
    try {
      envelope = ReplyEnvelope.parse(payload.buffer());
    } catch (ProtocolException e) {
      payload.release();
      closeWith(
          new InternalErrorException(
              "malformed reply from " + endpoint.address() + ": " + e.getMessage(), e));
      return;
    }
    PendingCall call = pending.remove(envelope.requestId());
    if (call == null) {
      payload.release();
      logger.debug(
          "Discarding a reply from {} for request {}, which is not pending (timed out?)",
          endpoint.address(),
          Integer.toUnsignedString(envelope.requestId()));
      return;
    }
    call.cancelTimer();
    call.onReply(envelope, payload);
    closeIfDrained();
  }

  void onGoAway(String message) {
    if (state >= DRAINING) {
      return;
    }
    closeCause =
        new UnavailableException(
            "the server at " + endpoint.address() + " is going away: " + message, true, null);
    state = DRAINING;
    endpoint.detach(this);
    closeIfDrained();
  }

  /** Closes the connection because of {@code cause}, which the pending calls then fail with. */
  void closeWith(RpcxException cause) {
    if (closeCause == null || state < DRAINING) {
      closeCause = cause;
    }
    channel.close();
  }

  void onInactive() {
    int previous = state;
    state = CLOSED;
    endpoint.detach(this);
    writes.start();
    if (pending.isEmpty()) {
      return;
    }
    RpcxException cause = closeCause;
    List<PendingCall> calls = new ArrayList<>(pending.values());
    pending.clear();
    for (PendingCall call : calls) {
      call.cancelTimer();
      call.onFailure(lostInFlight(call, cause, previous == DRAINING));
    }
  }

  /** The failure of a call that was written when the connection closed: it may have run. */
  private RpcxException lostInFlight(PendingCall call, RpcxException cause, boolean wasDraining) {
    String message =
        "connection to " + endpoint.address() + " closed while " + call.model().displayName()
            + " was in flight: "
            + (cause == null || wasDraining ? "the connection was lost" : cause.getMessage());
    if (cause == null || cause instanceof UnavailableException) {
      return new UnavailableException(message, false, cause);
    }
    return RpcxException.of(cause.status(), message, "");
  }

  private void closeIfDrained() {
    if (state == DRAINING && pending.isEmpty()) {
      channel.close();
    }
  }

  /** Closes the connection now; pending calls fail as unavailable. */
  void close(String reason) {
    channel.eventLoop().execute(
        () -> closeWith(new UnavailableException(reason, false, null)));
  }

  private static String describe(Throwable cause) {
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    if (message == null) {
      return root.getClass().getSimpleName();
    }
    // Native transports prefix the system call: "finishConnect(..) failed with error(-111): ".
    return message.replaceFirst("^\\w+\\(\\.\\.\\) failed with error\\(-?\\d+\\): ", "");
  }

  @Override
  public String toString() {
    return "connection to " + endpoint.address();
  }
}
