package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import java.util.concurrent.Future;

/**
 * The dispatcher's view of one client connection: where replies go. Implemented by the transport;
 * every method may be called from any thread.
 */
public interface ServerConnection {

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

  /**
   * Registers a server stream from its request's dispatch until its call ends, so that its credit
   * and a cancel reach it, and so that it fails when the connection closes.
   */
  void streamOpened(ServerStream stream);

  /** The call of {@code stream} has ended; its id is forgotten. */
  void streamEnded(ServerStream stream);

  /** Whether a stream (of any shape) with id {@code streamId} is open on this connection. */
  boolean isStreamOpen(int streamId);

  /** Sends a {@code STREAM_CREDIT}: the client may send {@code messages} more on the stream. */
  void sendStreamCredit(int streamId, int messages);

  /**
   * Registers the stream argument of a call from its request's dispatch until the call ends, so
   * that the client's messages, end and cancel reach it, and so that it fails when the connection
   * closes.
   */
  void inboundOpened(InboundStream stream);

  /** The call of {@code stream} has ended; later messages for its id are dropped. */
  void inboundEnded(InboundStream stream);

  /** Runs {@code task} after {@code delayNanos}, on the connection's event loop. */
  Future<?> schedule(Runnable task, long delayNanos);

  /** The POJO schemas the client announced on this connection, to decode arguments with. */
  PeerSchemas peerSchemas();

  /**
   * Why this connection refuses new calls (the server is shutting down, or has too many
   * connections), or {@code null} while it takes them.
   */
  String drainReason();

  /** Counts a call in flight on this connection; false if that would pass the limit. */
  boolean tryStartCall();

  /**
   * A call counted by {@link #tryStartCall()} is about to queue its last frame (or will send
   * none): it no longer counts against {@link #maxConcurrentCalls()}, so that a client starting
   * its next call as soon as it reads the reply is not refused. Called once per call, before
   * {@link #callFinished()}.
   */
  void callAnswered();

  /** A call counted by {@link #tryStartCall()} has queued its last frame (or was dropped). */
  void callFinished();

  /** The limit {@link #tryStartCall()} enforces. */
  int maxConcurrentCalls();

  /** The peer's address, for logs and messages. */
  String remoteAddress();

  /** Closes the connection at once, without GOAWAY: what a crash or a network reset looks like. */
  void reset();

  /** Logs the problem once, tells the peer with a GOAWAY frame, and closes the connection. */
  void closeForProtocolError(StatusCode code, String problem);
}
