package io.rpcx.client.internal.call;

import io.rpcx.core.CancelledException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * The future an asynchronous call returns, which its caller may {@link #cancel}: the attempt in
 * flight then ends as cancelled and the server is told, as far as its protocol can say it (gRPC's
 * {@code RST_STREAM(CANCEL)}; RPCX's {@code STREAM_CANCEL} for a client stream, and for a unary
 * call only that the reply is not wanted: the client forgets it). Stages chained on it are plain
 * futures. Thread-safe.
 */
final class CallFuture extends CompletableFuture<Object> {
  private static final VarHandle ATTEMPT;

  static {
    try {
      ATTEMPT = MethodHandles.lookup().findVarHandle(CallFuture.class, "attempt", AsyncCall.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The attempt that completes it now; written with release semantics, the cheapest publish. */
  @SuppressWarnings("unused") // through ATTEMPT
  private AsyncCall attempt;

  /** {@code call} is the attempt in flight now (the first, or a retry). */
  void attempt(AsyncCall call) {
    ATTEMPT.setRelease(this, call);
  }

  /**
   * Cancels the future ({@link CompletableFuture#cancel}) and, if that was what completed it, the
   * attempt in flight: it ends with a {@link CancelledException}, which its interceptors see.
   */
  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      AsyncCall current = (AsyncCall) ATTEMPT.getAcquire(this);
      if (current != null) {
        current.cancelledByCaller();
      }
    }
    return cancelled;
  }
}
