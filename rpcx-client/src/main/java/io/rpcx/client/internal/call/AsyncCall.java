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
  private final CompletableFuture<Object> future = new CompletableFuture<>();
  private final Executor callbacks;

  AsyncCall(ClientMethod method, Object[] args, Executor callbacks) {
    super(method, args);
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
            future.complete(method.decode(envelope, payload, peerSchemas()));
          } catch (Throwable t) {
            future.completeExceptionally(t);
          }
        });
  }

  @Override
  void onFailure(RpcxException failure) {
    run(() -> future.completeExceptionally(failure));
  }

  private void run(Runnable task) {
    try {
      callbacks.execute(task);
    } catch (RejectedExecutionException e) {
      task.run();
    }
  }
}
