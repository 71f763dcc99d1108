package io.rpcx.server.internal.dispatch;

import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.call.CallRequest;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A call that streams one way or both: registered with its connection from dispatch to its end,
 * so that the client's stream frames reach it ({@link OpenStream}), and ended by RPCX, once, when
 * its deadline passes, the client cancels, the connection is lost, the server shuts down or a
 * stream breaks the protocol ({@link #end}). What such an end does depends on its shape.
 */
abstract class StreamingCall extends ServerCall implements OpenStream {
  private final AtomicBoolean endedByRpcx = new AtomicBoolean();
  private volatile Future<?> deadline;

  StreamingCall(
      ServerConnection connection,
      ServerMethod method,
      CallRequest request,
      long receivedNanos,
      RequestDispatcher dispatcher) {
    super(connection, method, request, receivedNanos, dispatcher);
  }

  @Override
  final void dispatched(long deadlineNanos) {
    connection.streamOpened(this);
    if (deadlineNanos != NO_DEADLINE) {
      int timeoutMillis = request.timeoutMillis();
      deadline =
          connection.schedule(
              () -> {
                String reason = "the stream's deadline of " + timeoutMillis + " ms passed";
                end(
                    StatusCode.TIMEOUT,
                    new CallTimeoutException(
                        method.model().displayName() + " timed out: " + reason),
                    true);
                cancel(reason);
              },
              deadlineNanos);
    }
  }

  /**
   * Ends the call because of RPCX, not the implementation, once: the streams stop, and the call
   * ends with {@code failure}, whose end ({@code REPLY} or {@code STREAM_END}) is sent if {@code
   * send}, else nothing (the client is gone or cancelled).
   */
  final void end(StatusCode code, RpcxException failure, boolean send) {
    if (endedByRpcx.compareAndSet(false, true)) {
      cancelDeadline();
      endStreams(code, failure, send);
    }
  }

  /** What {@link #end} does to this shape's streams. */
  abstract void endStreams(StatusCode code, RpcxException failure, boolean send);

  /** Whether RPCX ended the call. */
  final boolean isEndedByRpcx() {
    return endedByRpcx.get();
  }

  private void cancelDeadline() {
    Future<?> timer = deadline;
    if (timer != null) {
      timer.cancel(false);
    }
  }

  @Override
  final void finished(Throwable failure) {
    cancelDeadline();
    connection.streamEnded(this);
    argumentEnded(failure == null ? null : unwrap(failure));
    super.finished(failure);
  }

  /** The call ended with {@code failure} (or null): a stream argument lets go of its subscriber. */
  void argumentEnded(Throwable failure) {}

  // OpenStream

  @Override
  public final int streamId() {
    return request.requestId();
  }

  @Override
  public final void cancelledByClient(String message) {
    String said = message.isEmpty() ? "" : ": " + message;
    end(
        StatusCode.CANCELLED,
        new CancelledException(
            method.model().displayName() + " was cancelled by the client" + said, null),
        false);
    cancel("the client cancelled the call" + said);
  }

  @Override
  public final void connectionLost() {
    end(
        StatusCode.UNAVAILABLE,
        UnavailableException.mayHaveRun(
            "the connection from " + connection.remoteAddress() + " closed while "
                + method.model().displayName() + " was streaming",
            null),
        false);
    cancel("the client's connection closed");
  }

  @Override
  public final void shutDown(String reason) {
    end(
        StatusCode.UNAVAILABLE,
        UnavailableException.mayHaveRun(
            reason + "; " + method.model().displayName() + " was ended", null),
        true);
    cancel(reason);
  }
}
