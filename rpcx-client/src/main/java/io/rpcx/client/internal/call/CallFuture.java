package io.rpcx.client.internal.call;

import io.rpcx.core.BlockingOperationException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.internal.transport.NetworkThreads;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future an asynchronous method returns: cancelling it ({@code future.cancel(...)}) cancels the
 * call, whose server is told ({@code STREAM_CANCEL}) and stops serving it, as a blocking caller's
 * timeout does. Stages made from it are {@link Stage}s, whose cancel, as {@code
 * CompletableFuture}'s, does not reach back. Waiting for either on one of RPCX's network threads
 * while it is not done ({@code join()}, {@code get()}) throws {@link BlockingOperationException}:
 * the reply would have to be read by the thread that waits for it. Thread-safe.
 */
final class CallFuture extends CompletableFuture<Object> {
  private final String method;

  /** The attempt in flight: each attempt of the call completes this future in turn. */
  private volatile PendingCall attempt;

  /** The future of a call to {@code method} ({@code service/method}, for messages). */
  CallFuture(String method) {
    this.method = method;
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

  @Override
  public Object get() throws InterruptedException, ExecutionException {
    refuseWaitingOnNetworkThread(this, method);
    return super.get();
  }

  @Override
  public Object get(long timeout, TimeUnit unit)
      throws InterruptedException, ExecutionException, TimeoutException {
    refuseWaitingOnNetworkThread(this, method);
    return super.get(timeout, unit);
  }

  @Override
  public Object join() {
    refuseWaitingOnNetworkThread(this, method);
    return super.join();
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new Stage<>(method);
  }

  /**
   * A stage made from a call's future (by {@code thenApply}, {@code thenCompose}, ...): a plain
   * future, but waiting for it on a network thread is refused too.
   */
  static final class Stage<T> extends CompletableFuture<T> {
    private final String method;

    Stage(String method) {
      this.method = method;
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
      refuseWaitingOnNetworkThread(this, method);
      return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit)
        throws InterruptedException, ExecutionException, TimeoutException {
      refuseWaitingOnNetworkThread(this, method);
      return super.get(timeout, unit);
    }

    @Override
    public T join() {
      refuseWaitingOnNetworkThread(this, method);
      return super.join();
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
      return new Stage<>(method);
    }
  }

  /**
   * Throws if the current thread is one of RPCX's network threads and {@code future} (of a call
   * to {@code method}) is not done: waiting would stall every call of the thread's connections,
   * and, when the reply comes on one of them, forever.
   */
  private static void refuseWaitingOnNetworkThread(CompletableFuture<?> future, String method) {
    if (!future.isDone() && NetworkThreads.isCurrent()) {
      RpcxContext served = RpcxContext.current();
      throw new BlockingOperationException(
          "waiting for the result of "
              + method
              + " on network thread "
              + Thread.currentThread().getName()
              + (served.isServingCall() ? " in " + served.service() + "/" + served.method() : "")
              + " would stall every call of that thread's connections, the reply included:"
              + " return the future composed (thenApply, thenCompose) instead of waiting for it,"
              + " or annotate the calling method @Blocking so that it runs on a worker");
    }
  }
}
