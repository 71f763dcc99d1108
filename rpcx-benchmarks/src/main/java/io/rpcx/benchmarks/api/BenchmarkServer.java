package io.rpcx.benchmarks.api;

/**
 * A running server of one system, listening on 127.0.0.1 at an ephemeral port. {@link #close()}
 * stops it and waits (briefly) for its threads to end; it throws unchecked exceptions only, and
 * keeps the thread's interrupt status if interrupted while waiting.
 */
public interface BenchmarkServer extends AutoCloseable {

  /** The TCP port the server listens on. */
  int port();

  @Override
  void close();
}
