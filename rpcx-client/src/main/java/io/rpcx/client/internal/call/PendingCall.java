package io.rpcx.client.internal.call;

import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.RequestWriter;
import io.rpcx.core.internal.protocol.SizeHints;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One call from the moment it is made until its outcome is delivered: its arguments and deadline,
 * the request id its connection gave it, and how its outcome reaches the caller.
 *
 * <p>A call finishes exactly once: the first of its reply ({@link #reply}), a failure ({@link
 * #fail}) and its caller giving up wins; the others are ignored (a late reply's payload is
 * released). Thread-safe.
 */
public abstract class PendingCall {
  private static final VarHandle FINISHED;

  static {
    try {
      FINISHED = MethodHandles.lookup().findVarHandle(PendingCall.class, "finished", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  protected final ClientMethod method;
  private final Object[] args;
  private final Map<String, String> metadata;
  private final long deadlineNanos;
  private final int attempt;
  private final CallRoute previousRoute;
  private volatile boolean finished;
  private int requestId;
  private CallOwner owner;
  private CallRoute route;

  /**
   * Attempt number {@code attempt} (from 1) of a call whose timeout ends at {@code deadlineNanos};
   * {@code previousRoute} is where the attempt before it went, or {@code null}.
   */
  PendingCall(
      ClientMethod method, Object[] args, long deadlineNanos, int attempt, CallRoute previousRoute) {
    this.method = method;
    this.args = args;
    this.metadata = method.metadata();
    this.deadlineNanos = deadlineNanos;
    this.attempt = attempt;
    this.previousRoute = previousRoute;
  }

  /** Records the server a balancer sent this call to; it hears how the call ends. */
  public final void route(CallRoute route) {
    this.route = route;
  }

  /** Where the previous attempt of this call went, to be avoided if possible; or {@code null}. */
  public final CallRoute previousRoute() {
    return previousRoute;
  }

  /** The attempt number, from 1. */
  public final int attempt() {
    return attempt;
  }

  /** When the call times out, in {@link System#nanoTime()} terms. */
  public final long deadlineNanos() {
    return deadlineNanos;
  }

  /** The sizes this call's method encoded last. */
  public final SizeHints sizeHints() {
    return method.sizeHints();
  }

  /** The hash of the argument annotated {@code @RoutingKey}; 0 if there is none. */
  public final long routingHash() {
    return method.routingHash(args);
  }

  /** Whether the method has a {@code @RoutingKey} argument. */
  public final boolean hasRoutingKey() {
    return method.model().routingKeyIndex() >= 0;
  }

  /** The server this attempt went to, or {@code null} if it was not routed. */
  final CallRoute routeTaken() {
    return route;
  }

  /** The server this call went to, or the channel's description before it was routed. */
  final String address() {
    CallRoute current = route;
    return current != null ? current.address() : method.channelAddress();
  }

  final Object[] args() {
    return args;
  }

  /** Records the connection that sends this call and the id it gave it. */
  public final void bind(CallOwner owner, int requestId) {
    this.owner = owner;
    this.requestId = requestId;
  }

  public final int requestId() {
    return requestId;
  }

  public final MethodModel model() {
    return method.model();
  }

  /** Nanoseconds left before the call times out (may be negative). */
  public final long remainingNanos() {
    return deadlineNanos - System.nanoTime();
  }

  /** The time left, as sent to the server: a retry tells it only what is left of the timeout. */
  private int remainingMillis() {
    long millis = TimeUnit.NANOSECONDS.toMillis(remainingNanos());
    return (int) Math.max(1, Math.min(method.timeoutMillis(), millis));
  }

  /** Whether the call has its outcome (or its caller gave up). */
  public final boolean isFinished() {
    return finished;
  }

  /** Writes the request payload. */
  public final void writeTo(ProtoWriter out) throws IOException {
    MethodModel model = method.model();
    RequestWriter.write(
        out,
        requestId,
        model.nameFields(),
        model.parameterTypeFields(),
        model.parameterCodecs(),
        args,
        remainingMillis(),
        metadata,
        method.sizeHints().arguments());
  }

  /** Whether the transport must time this call out (no caller thread waits for it). */
  public abstract boolean needsTimer();

  /**
   * Delivers the reply; this call then owns {@code payload}. Ignored if already finished. A reply
   * that arrives after the deadline times the call out instead: a caller never gets a result
   * later than it asked to wait, however late its timeout fired.
   */
  public final void reply(ReplyEnvelope envelope, Payload payload) {
    if (remainingNanos() < 0) {
      payload.release();
      timeOut();
      return;
    }
    if (finish()) {
      ended(CallOutcome.REPLIED);
      onReply(envelope, payload);
    } else {
      payload.release();
    }
  }

  /** Fails the call. Ignored if already finished. */
  public final void fail(RpcxException failure) {
    if (finish()) {
      ended(
          failure instanceof UnavailableException ? CallOutcome.UNAVAILABLE : CallOutcome.OTHER);
      onFailure(failure);
    }
  }

  /**
   * Times the call out; its connection, which calls this, has forgotten it already. Ignored if
   * already finished.
   */
  public final void timeOut() {
    if (finish()) {
      ended(CallOutcome.TIMED_OUT);
      onTimeout();
    }
  }

  /** Tells the route how the call ended; once, by whoever finished the call. */
  final void ended(CallOutcome outcome) {
    CallRoute current = route;
    if (current != null) {
      current.ended(this, outcome);
    }
  }

  /** Claims the outcome; true for exactly one caller. */
  final boolean finish() {
    return FINISHED.compareAndSet(this, false, true);
  }

  abstract void onReply(ReplyEnvelope envelope, Payload payload);

  abstract void onFailure(RpcxException failure);

  /** The call timed out (and was finished): tell its caller. */
  abstract void onTimeout();

  /** The schemas of the connection the call was sent on. */
  final PeerSchemas peerSchemas() {
    return owner == null ? null : owner.peerSchemas();
  }

  /** Tells the connection the caller has given up on the call. */
  final void abandon() {
    if (owner != null) {
      owner.abandon(this);
    }
  }
}
