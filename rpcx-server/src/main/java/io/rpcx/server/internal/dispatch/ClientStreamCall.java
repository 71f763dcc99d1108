package io.rpcx.server.internal.dispatch;

import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.call.CallRequest;
import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.stream.StreamSender;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A call of a client-stream method: the implementation gets the client's messages as its {@code
 * Flow.Publisher} argument ({@link ArgumentStream}) and answers with one reply. RPCX may end the
 * call while the implementation still runs (a synchronous one blocks its worker until the stream
 * ends): then the reply goes out at once (or nothing, when the client is gone), not when the
 * implementation returns, and its subscriber gets the failure.
 */
final class ClientStreamCall extends StreamingCall {
  private final ArgumentStream arguments;
  /** Completes exceptionally when RPCX ends the call; never normally. */
  private final CompletableFuture<Object> ended = new CompletableFuture<>();
  /** RPCX ended the call without a reply to send: the client cancelled it, or is gone. */
  private volatile boolean silent;

  ClientStreamCall(
      ServerConnection connection,
      ServerMethod method,
      CallRequest request,
      long receivedNanos,
      RequestDispatcher dispatcher) {
    super(connection, method, request, receivedNanos, dispatcher);
    this.arguments = dispatcher.argumentStream(this);
  }

  @Override
  void started(RpcxContext context) {
    arguments.receiver().context(context);
    ended.whenComplete((value, failure) -> complete(null, failure));
  }

  @Override
  Object invoke() throws Throwable {
    if (isEndedByRpcx()) {
      request.release();
      return ended;
    }
    return super.invoke();
  }

  @Override
  Object[] withStreams(Object[] args) {
    args[method.model().streamParameterIndex()] = arguments.receiver();
    return args;
  }

  @Override
  CompletionStage<Object> outcome(Object result) {
    if (result == ended) {
      return ended; // ended by RPCX before it ran
    }
    // The implementation's outcome, or the end RPCX gave the call first: what interceptors see.
    CompletableFuture<Object> first = new CompletableFuture<>();
    ended.whenComplete((value, failure) -> first.completeExceptionally(failure));
    super.outcome(result)
        .whenComplete(
            (value, failure) -> {
              if (failure != null) {
                first.completeExceptionally(failure);
              } else {
                first.complete(value);
              }
            });
    return first;
  }

  @Override
  void endStreams(StatusCode code, RpcxException failure, boolean send) {
    arguments.receiver().fail(failure);
    silent = !send;
    ended.completeExceptionally(failure);
  }

  @Override
  boolean isSilent() {
    return silent;
  }

  @Override
  void argumentEnded(Throwable failure) {
    arguments.callEnded(failure);
  }

  @Override
  public long streamMessagesReceived() {
    return arguments.receiver().received();
  }

  @Override
  public StreamSender sender() {
    return null;
  }

  @Override
  public StreamReceiver receiver() {
    return arguments.receiver();
  }
}
