package io.rpcx.client.internal.call;

import java.util.concurrent.CompletableFuture;

/**
 * The future an asynchronous method returns: cancelling it ({@code future.cancel(...)}) cancels the
 * call, whose server is told ({@code STREAM_CANCEL}) and stops serving it, as a blocking caller's
 * timeout does. Stages made from it are plain futures, whose cancel, as {@code CompletableFuture}'s,
 * does not reach back. Thread-safe.
 */
final class CallFuture extends CompletableFuture<Object> {
  /** The attempt in flight: each attempt of the call completes this future in turn. */
  private volatile PendingCall attempt;

  void attempt(PendingCall attempt) {
    this.attempt = attempt;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    PendingCall current = attempt;
    if (cancelled && current != null) {
      current.cancel("the caller cancelled its future");
    }
    return cancelled;
  }
}
