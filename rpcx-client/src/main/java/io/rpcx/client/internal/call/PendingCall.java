package io.rpcx.client.internal.call;

import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.RequestCodec;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;

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
  private volatile boolean finished;
  private int requestId;
  private CallOwner owner;
  private Object timer;

  PendingCall(ClientMethod method, Object[] args) {
    this.method = method;
    this.args = args;
    this.metadata = method.metadata();
    this.deadlineNanos = System.nanoTime() + method.timeoutNanos();
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

  /** Whether the call has its outcome (or its caller gave up). */
  public final boolean isFinished() {
    return finished;
  }

  /** Writes the request payload. */
  public final void writeTo(ProtoWriter out) throws IOException {
    MethodModel model = method.model();
    RequestCodec.write(
        out,
        requestId,
        model.nameFields(),
        model.parameterTypeFields(),
        model.parameterCodecs(),
        args,
        method.timeoutMillis(),
        metadata,
        model.argumentSizeHints());
  }

  /** Whether the transport must time this call out (no caller thread waits for it). */
  public abstract boolean needsTimer();

  /** Keeps the transport's timer handle of this call. */
  public final void timer(Object timer) {
    this.timer = timer;
  }

  /** The transport's timer handle, or {@code null}. */
  public final Object timer() {
    return timer;
  }

  /** Delivers the reply; this call then owns {@code payload}. Ignored if already finished. */
  public final void reply(ReplyEnvelope envelope, Payload payload) {
    if (finish()) {
      onReply(envelope, payload);
    } else {
      payload.release();
    }
  }

  /** Fails the call. Ignored if already finished. */
  public final void fail(RpcxException failure) {
    if (finish()) {
      onFailure(failure);
    }
  }

  /** Times the call out and tells its connection to forget it. Ignored if already finished. */
  public final void timeOut() {
    if (finish()) {
      onFailure(method.timeoutException());
      abandon();
    }
  }

  /** Claims the outcome; true for exactly one caller. */
  final boolean finish() {
    return FINISHED.compareAndSet(this, false, true);
  }

  abstract void onReply(ReplyEnvelope envelope, Payload payload);

  abstract void onFailure(RpcxException failure);

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
