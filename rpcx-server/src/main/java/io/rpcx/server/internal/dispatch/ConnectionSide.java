package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import java.util.concurrent.Future;

/**
 * What the calls of one client connection share, whatever carries their answers: its event loop,
 * its limit of calls in flight, whether it still takes calls, its peer, and how it is closed. A
 * {@link ServerConnection} is one; an HTTP request served through the call API of {@code
 * HttpExchange} answers on a connection of its own ({@link HandlerCall}) that shares these with the
 * HTTP connection it came on. Implemented by the transport; every method may be called from any
 * thread.
 */
public interface ConnectionSide {

  /** Runs {@code task} after {@code delayNanos}, on the connection's event loop. */
  Future<?> schedule(Runnable task, long delayNanos);

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
