package io.rpcx.server;

/**
 * What a running server is doing, read live on every call of a method: for gauges and counters
 * ({@code rpcx-micrometer} binds them). Thread-safe.
 */
public interface ServerStats {

  /** Client connections open now. */
  int openConnections();

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
