package io.rpcx.server;

/**
 * What a running server is doing, read live on every call of a method: for gauges and counters
 * ({@code rpcx-micrometer} binds them). Thread-safe.
 */
public interface ServerStats {

  /**
   * Client connections open now that sent their preface: those {@code maxConnections} counts.
   */
  int openConnections();

  /**
   * Client connections accepted and not yet through their handshake (TLS, the RPCX preface):
   * those {@code maxHandshakingConnections} counts. Many for long means peers that connect and
   * do not speak.
   */
  default int handshakingConnections() {
    return 0;
  }

  /**
   * Connections refused since the server started: over {@code maxHandshakingConnections} or its
   * limit per address (closed on arrival), or over {@code maxConnections} (told why, then closed).
   */
  default long refusedConnections() {
    return 0;
  }

  /** Calls accepted and not yet answered. */
  int callsInFlight();

  /**
   * Calls waiting for a worker thread. Counted for the server's own pool and for a {@code
   * ThreadPoolExecutor}; 0 for other executors and for calls run on the network threads.
   */
  int queuedCalls();

  /** Calls refused before they ran since the server started; see {@link RefusedCall}. */
  long refusedCalls();
}
