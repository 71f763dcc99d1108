package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;

/**
 * Where the frames that answer the calls of one connection go, encoded as its protocol lays them
 * out: replies, the messages and ends of server streams, and credit for stream arguments.
 * Implemented by the transport; every method may be called from any thread.
 */
public interface Replies {

  /**
   * Encodes and sends a successful reply to a call of {@code method}, preceded on this connection
   * by the SCHEMA of its result types the first time.
   *
   * @throws CodecException if the value cannot be encoded; nothing was sent
   */
  void sendValue(int requestId, ServerMethod method, Object value) throws CodecException;

  /** Sends an error reply. {@code exceptionClass} is empty unless the status is a remote failure. */
  void sendError(int requestId, StatusCode code, String message, String exceptionClass);

  /** Where the messages and the end of the server stream {@code streamId} of {@code method} go. */
  StreamOutput streamOutput(int streamId, ServerMethod method);

  /** Sends a {@code STREAM_CREDIT}: the client may send {@code messages} more on the stream. */
  void sendStreamCredit(int streamId, int messages);
}
