package io.rpcx.client.internal.call;

/**
 * The future an asynchronous method returns: cancelling it ({@code future.cancel(...)}) cancels the
 * call, whose server is told ({@code STREAM_CANCEL}) and stops serving it, as a blocking caller's
 * timeout does. Stages made from it are {@link CallStage}s, whose cancel, as {@code
 * CompletableFuture}'s, does not reach back; waiting for either on a network thread is refused
 * ({@link CallStage}). Thread-safe.
 */
final class CallFuture extends CallStage<Object> {
  /** The attempt in flight: each attempt of the call completes this future in turn. */
  private volatile PendingCall attempt;

  /** The future of a call to {@code method} ({@code service/method}, for messages). */
  CallFuture(String method) {
    super(method);
  }

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
