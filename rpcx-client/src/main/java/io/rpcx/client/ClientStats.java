package io.rpcx.client;

/**
 * What a client is doing, read live on every call of a method: for gauges and counters ({@code
 * rpcx-micrometer} binds them). Thread-safe.
 */
public interface ClientStats {

  /** Calls sent and not yet answered, on all connections. */
  int callsInFlight();

  /** Connections to servers open now. */
  int openConnections();

  /** Attempts made again after a failure since the client was built. */
  long retries();

  /** Times a server was taken out of rotation since the client was built. */
  long ejections();
}
