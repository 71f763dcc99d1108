package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.protocol.ThrownException;

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

  /**
   * Sends an error reply. {@code thrown} is the exception of a remote failure (its fields are left
   * out, and the leaving out logged, if they cannot be encoded or pass the frame limit), or {@code
   * null}.
   */
  void sendError(int requestId, StatusCode code, String message, ThrownException thrown);

  /** Where the messages and the end of the server stream {@code streamId} of {@code method} go. */
  StreamOutput streamOutput(int streamId, ServerMethod method);

  /** Sends a {@code STREAM_CREDIT}: the client may send {@code messages} more on the stream. */
  void sendStreamCredit(int streamId, int messages);
}
