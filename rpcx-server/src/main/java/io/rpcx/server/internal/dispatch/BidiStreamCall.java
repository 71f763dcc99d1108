package io.rpcx.server.internal.dispatch;

import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.call.CallRequest;
import io.rpcx.core.internal.stream.StreamReceiver;

/**
 * A call of a bidirectional method: a {@link ServerStreamCall} whose implementation also gets the
 * client's messages as its {@code Flow.Publisher} argument ({@link ArgumentStream}). RPCX ending
 * the call (cancel, deadline, shutdown, flow control) fails that argument's subscriber and ends the
 * outbound stream, and the call ends with that stream.
 */
final class BidiStreamCall extends ServerStreamCall {
  private final ArgumentStream arguments;

  BidiStreamCall(
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
  }

  @Override
  Object[] withStreams(Object[] args) {
    args[method.model().streamParameterIndex()] = arguments.receiver();
    return args;
  }

  @Override
  void endStreams(StatusCode code, RpcxException failure, boolean send) {
    arguments.receiver().fail(failure);
    super.endStreams(code, failure, send);
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
  public StreamReceiver receiver() {
    return arguments.receiver();
  }
}
