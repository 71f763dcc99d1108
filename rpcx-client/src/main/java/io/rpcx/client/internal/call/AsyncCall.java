package io.rpcx.client.internal.call;

import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A call whose outcome completes a {@code CompletableFuture}. The transport times it out from the
 * moment it is sent; the result is decoded and the future completed on the client's callback
 * executor, so that code chained on the future never runs on (and never blocks) a network thread.
 */
final class AsyncCall extends PendingCall {
  private final CompletableFuture<Object> future;
  private final Executor callbacks;

  /** An attempt whose outcome completes {@code future}, unless a further attempt takes it over. */
  AsyncCall(
      ClientMethod method,
      Object[] args,
      long deadlineNanos,
      int attempt,
      CallRoute previous,
      CompletableFuture<Object> future,
      Executor callbacks) {
    super(method, args, deadlineNanos, attempt, previous);
    this.future = future;
    this.callbacks = callbacks;
  }

  CompletableFuture<Object> future() {
    return future;
  }

  @Override
  public boolean needsTimer() {
    return true;
  }

  @Override
  void onReply(ReplyEnvelope envelope, Payload payload) {
    run(
        () -> {
          try {
            future.complete(method.decode(envelope, payload, peerSchemas(), address()));
          } catch (RpcxException failure) {
            // A server going away refuses calls as unavailable and not run: retried elsewhere.
            if (!method.retry(this, failure)) {
              future.completeExceptionally(failure);
            }
          } catch (Throwable t) {
            future.completeExceptionally(t);
          }
        });
  }

  @Override
  void onFailure(RpcxException failure) {
    run(
        () -> {
          if (!method.retry(this, failure)) {
            future.completeExceptionally(failure);
          }
        });
  }

  private void run(Runnable task) {
    try {
      callbacks.execute(task);
    } catch (RejectedExecutionException e) {
      task.run();
    }
  }
}
