package io.rpcx.client.internal.call;

import io.rpcx.core.BlockingOperationException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.internal.transport.NetworkThreads;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A future of a call, or a stage made from it (by {@code thenApply}, {@code thenCompose}, ...,
 * which make {@code CallStage}s): a plain future, but waiting for it on one of RPCX's network
 * threads while it is not done ({@code join()}, {@code get()}) throws {@link
 * BlockingOperationException}, since the reply would have to be read by the thread that waits.
 */
class CallStage<T> extends CompletableFuture<T> {
  private final String method;

  CallStage(String method) {
    this.method = method;
  }

  @Override
  public T get() throws InterruptedException, ExecutionException {
    refuseWaitingOnNetworkThread();
    return super.get();
  }

  @Override
  public T get(long timeout, TimeUnit unit)
      throws InterruptedException, ExecutionException, TimeoutException {
    if (timeout > 0) { // get(0, unit) only looks
      refuseWaitingOnNetworkThread();
    }
    return super.get(timeout, unit);
  }

  @Override
  public T join() {
    refuseWaitingOnNetworkThread();
    return super.join();
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CallStage<>(method);
  }

  /**
   * Throws if the current thread is one of RPCX's network threads and this future is not done:
   * waiting would stall every call of the thread's connections, and, when the reply comes on
   * one of them, forever.
   */
  private void refuseWaitingOnNetworkThread() {
    if (!isDone() && NetworkThreads.isCurrent()) {
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
