package io.rpcx.client.internal.call;

import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import java.util.concurrent.CompletableFuture;

/**
 * A call whose outcome completes a {@code CompletableFuture}. The transport times it out from the
 * moment it is sent; the result is decoded and the future completed on the client's callback
 * executor, so that code chained on the future never runs on (and never blocks) a network thread.
 */
final class AsyncCall extends PendingCall {
  private final CompletableFuture<Object> future;
  private final Completions completions;

  /** An attempt whose outcome completes {@code future}, unless a further attempt takes it over. */
  AsyncCall(
      ClientMethod method,
      Object[] args,
      long deadlineNanos,
      int attempt,
      CallRoute previous,
      CompletableFuture<Object> future,
      Completions completions) {
    super(method, args, deadlineNanos, attempt, previous);
    this.future = future;
    this.completions = completions;
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
    completions.run(
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
    completions.run(
        () -> {
          if (!method.retry(this, failure)) {
            future.completeExceptionally(failure);
          }
        });
  }

  @Override
  void onTimeout() {
    completions.timedOut(this);
  }

  /** On a callback thread: fails the future as timed out (a timeout is never retried). */
  void completeTimedOut() {
    future.completeExceptionally(method.timeoutException(this));
  }
}
