package io.rpcx.server.internal.dispatch;

import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.stream.StreamSender;

/**
 * A call that streams, as its connection sees it from the request's dispatch to the end of the
 * call: where the client's stream frames for its id go, and what happens to it when the
 * connection closes or the server shuts down. Implemented by the streaming calls; thread-safe.
 */
public interface OpenStream {

  /** The request id, which the stream frames carry. */
  int streamId();

  /** The sending half, which takes the client's {@code STREAM_CREDIT}; {@code null} if none. */
  StreamSender sender();

  /** The receiving half, which takes the client's {@code STREAM_MESSAGE}s; {@code null} if none. */
  StreamReceiver receiver();

  /** The client's {@code STREAM_CANCEL}: the call ends {@code CANCELLED}, nothing more is sent. */
  void cancelledByClient(String message);

  /** The connection closed. */
  void connectionLost();

  /** The server is shutting down and its grace period is over: the call ends UNAVAILABLE. */
  void shutDown(String reason);
}
