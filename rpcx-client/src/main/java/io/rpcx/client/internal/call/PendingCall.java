package io.rpcx.client.internal.call;

import com.google.protobuf.CodedOutputStream;
import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.SizeCache;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.RequestCodec;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * One call from the moment it is made until its outcome is delivered: its arguments and deadline,
 * the request id its connection gave it, and how its outcome reaches the caller. The connection
 * guarantees that exactly one of {@link #onReply} and {@link #onFailure} is called, on its event
 * loop.
 */
public abstract class PendingCall {
  protected final ClientMethod method;
  private final Object[] args;
  private final long deadlineNanos;
  private int requestId;
  private CallOwner owner;
  private Future<?> timer;

  PendingCall(ClientMethod method, Object[] args) {
    this.method = method;
    this.args = args;
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

  /** Size of the request payload; reserves slots in {@code sizes}. */
  public final int encodedSize(SizeCache sizes) throws CodecException {
    MethodModel model = method.model();
    return RequestCodec.size(
        requestId,
        model.nameFields(),
        model.parameterTypeFields(),
        model.parameterCodecs(),
        args,
        method.timeoutMillis(),
        Map.of(),
        sizes);
  }

  /** Writes the request payload measured by {@link #encodedSize}. */
  public final void writeTo(CodedOutputStream out, SizeCache sizes) throws IOException {
    MethodModel model = method.model();
    RequestCodec.write(
        out,
        requestId,
        model.nameFields(),
        model.parameterTypeFields(),
        model.parameterCodecs(),
        args,
        method.timeoutMillis(),
        Map.of(),
        sizes);
  }

  /** Whether the connection must time this call out itself (no caller thread waits for it). */
  public abstract boolean needsTimer();

  /** Sets the connection's timer for this call. */
  public final void timer(Future<?> timer) {
    this.timer = timer;
  }

  /** Cancels the connection's timer, if any. */
  public final void cancelTimer() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  /** The reply arrived; this call now owns {@code payload} and must release it. */
  public abstract void onReply(ReplyEnvelope envelope, Payload payload);

  /** The call failed before a reply arrived. */
  public abstract void onFailure(RpcxException failure);

  /** The exception of this call timing out. */
  public final RpcxException timeoutException() {
    return method.timeoutException();
  }

  /** The schemas of the connection the call was sent on. */
  final io.rpcx.core.internal.codec.PeerSchemas peerSchemas() {
    return owner == null ? null : owner.peerSchemas();
  }

  /** Tells the connection the caller has given up on the call. */
  final void abandon() {
    if (owner != null) {
      owner.abandon(this);
    }
  }
}
