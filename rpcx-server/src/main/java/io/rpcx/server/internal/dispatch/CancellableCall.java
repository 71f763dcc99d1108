package io.rpcx.server.internal.dispatch;

/**
 * A unary call as its connection keeps it from dispatch to its end, so that the client's cancel
 * ({@code STREAM_CANCEL} with its request id, docs/PROTOCOL.md, 1.7) reaches it, and so that it is
 * cancelled when the connection closes or the server's grace period ends. Thread-safe.
 */
public interface CancellableCall {

  /** The request id the client's cancel names. */
  int requestId();

  /**
   * Cancels the call, saying {@code reason}: one not running yet never runs, a running one has
   * its {@code RpcxContext} cancelled (and its thread interrupted where the method opts in), and
   * no reply is sent: nobody waits for it. Idempotent.
   */
  void cancel(String reason);
}
