package io.rpcx.server.internal.dispatch;

import io.rpcx.core.internal.codec.PeerSchemas;

/**
 * The dispatcher's view of one client connection: where its answers go ({@link #replies()}), its
 * open streams, and (as a {@link ConnectionSide}) the limits of its calls and how it is closed.
 * Implemented by the transport; every method may be called from any thread.
 */
public interface ServerConnection extends ConnectionSide {

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

  /** The POJO schemas the client announced on this connection, to decode arguments with. */
  PeerSchemas peerSchemas();
}
