package io.rpcx.server.internal.dispatch;

import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.call.CallRequest;
import io.rpcx.core.internal.protocol.ThrownException;
import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.stream.StreamSender;
import java.util.concurrent.CompletionStage;

/**
 * A call of a server-stream method: the implementation's result (a {@code Flow.Publisher} or a
 * {@code Stream}) is sent as the call's stream ({@link ResultStream}), and the call ends when the
 * stream does: its interceptors see the whole stream as one call. Before the stream starts, a
 * failure is answered with a REPLY; after, with the stream's {@code STREAM_END}.
 */
class ServerStreamCall extends StreamingCall {
  final ResultStream results;

  ServerStreamCall(
      ServerConnection connection,
      ServerMethod method,
      CallRequest request,
      long receivedNanos,
      RequestDispatcher dispatcher) {
    super(connection, method, request, receivedNanos, dispatcher);
    this.results =
        new ResultStream(
            connection, method, request.requestId(), request.initialCredit(),
            dispatcher.executor(method));
    results.beforeFailureEnd(this::answered);
  }

  @Override
  Object invoke() throws Throwable {
    if (results.isEnded()) { // cancelled or timed out before it ran
      request.release();
      return null;
    }
    return super.invoke();
  }

  @Override
  CompletionStage<Object> outcome(Object result) {
    if (result == null) {
      if (results.isEnded()) {
        return results.ended(); // ended before it ran
      }
      throw new ImplementationFailure(
          new NullPointerException(method.model().displayName() + " returned a null stream"));
    }
    results.start(result); // cancelled at once if the stream ended meanwhile
    return results.ended();
  }

  @Override
  void endStreams(StatusCode code, RpcxException failure, boolean send) {
    results.fail(code, failure, send);
  }

  @Override
  void sendResult(Object result) {
    results.end(null, "", null);
  }

  @Override
  void sendError(StatusCode code, String message, ThrownException thrown) {
    if (results.started() || results.isEnded()) {
      results.end(code, message, thrown);
    } else {
      super.sendError(code, message, thrown);
    }
  }

  @Override
  public long streamMessagesSent() {
    return results.sender().sent();
  }

  @Override
  public StreamSender sender() {
    return results.sender();
  }

  @Override
  public StreamReceiver receiver() {
    return null;
  }
}
