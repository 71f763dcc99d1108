package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.protocol.ThrownException;

/**
 * Where the frames of one server stream go, in order: its {@code STREAM_MESSAGE}s, then its {@code
 * STREAM_END}. Implemented by the transport ({@link ServerConnection#streamOutput}); its stream
 * calls it one thread at a time, under its own monitor.
 */
public interface StreamOutput {

  /**
   * Encodes and sends one element as a {@code STREAM_MESSAGE}, preceded on this connection by the
   * SCHEMA of its types the first time.
   *
   * @return false if the element is over the frame limit; nothing was sent
   * @throws CodecException if the element cannot be encoded; nothing was sent
   */
  boolean message(Object value) throws CodecException;

  /**
   * Sends the stream's {@code STREAM_END}, after every message: OK when {@code code} is null;
   * {@code thrown} as in {@link Replies#sendError}.
   */
  void end(StatusCode code, String message, ThrownException thrown);
}
