package io.rpcx.client.internal.call;

import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;

/**
 * A call whose outcome completes a {@code CompletableFuture}. The transport times it out from the
 * moment it is sent; the result is decoded and the future completed on the client's callback
 * executor, so that code chained on the future never runs on (and never blocks) a network thread.
 * The future is completed in the {@link RpcxContext} the call was made in: stages chained on it
 * (and RPCX calls they make) keep the deadline and trace of the call being served. Cancelling the
 * future cancels the attempt in flight ({@link CallFuture}).
 */
final class AsyncCall extends PendingCall {
  private final CallFuture future;
  private final Completions completions;

  /** An attempt whose outcome completes {@code future}, unless a further attempt takes it over. */
  AsyncCall(
      ClientMethod method,
      Invocation invocation,
      int attempt,
      CallRoute previous,
      CallFuture future,
      Completions completions) {
    super(method, invocation, attempt, previous);
    this.future = future;
    this.completions = completions;
    future.attempt(this);
  }

  CallFuture future() {
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
          RpcxContext.Scope scope = attachCaller();
          try {
            future.complete(method.decode(envelope, payload, peerSchemas(), address()));
          } catch (Throwable t) {
            future.completeExceptionally(t);
          } finally {
            detach(scope);
          }
        });
  }

  @Override
  void onFailure(RpcxException failure, Throwable thrown) {
    completions.run(
        () -> {
          // A server going away refuses calls as unavailable and not run: retried elsewhere.
          if (!method.retry(this, failure)) {
            RpcxContext.Scope scope = attachCaller();
            try {
              future.completeExceptionally(thrown);
            } finally {
              detach(scope);
            }
          }
        });
  }

  @Override
  void onArgumentFailure(Throwable error) {
    completions.run(
        () -> {
          RpcxContext.Scope scope = attachCaller();
          try {
            future.completeExceptionally(error);
          } finally {
            detach(scope);
          }
        });
  }

  @Override
  void onTimeout() {
    completions.timedOut(this);
  }

  /** On a callback thread: fails the future as timed out (a timeout is never retried). */
  void completeTimedOut() {
    RpcxContext.Scope scope = attachCaller();
    try {
      future.completeExceptionally(method.timeoutException(this));
    } finally {
      detach(scope);
    }
  }

  /** Makes the caller's context current here, unless it had none; {@code null} then. */
  private RpcxContext.Scope attachCaller() {
    RpcxContext caller = invocation().caller();
    return caller == RpcxContext.ROOT ? null : caller.attach();
  }

  private static void detach(RpcxContext.Scope scope) {
    if (scope != null) {
      scope.close();
    }
  }
}
