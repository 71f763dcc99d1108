package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.PeerSchemas;
import java.util.concurrent.Future;

/**
 * The dispatcher's view of one client connection: where its answers go ({@link #replies()}), its
 * open streams, the limits of its calls, and how it is closed. Implemented by the transport; every
 * method may be called from any thread.
 */
public interface ServerConnection {

  /** Where the frames answering this connection's calls go. */
  Replies replies();

  /**
   * Registers a streaming call from its request's dispatch until it ends, so that the client's
   * stream frames reach it, and so that it ends when the connection closes.
   */
  void streamOpened(OpenStream stream);

  /** The streaming call has ended; later frames for its id are dropped. */
  void streamEnded(OpenStream stream);

  /**
   * Registers a unary call from its request's dispatch until it ends, so that the client's cancel
   * reaches it, and so that it is cancelled when the connection closes.
   */
  void callStarted(CancellableCall call);

  /** The unary call has ended; a cancel for its id is dropped. */
  void callEnded(CancellableCall call);

  /** Whether a stream (of any shape) with id {@code streamId} is open on this connection. */
  boolean isStreamOpen(int streamId);

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
