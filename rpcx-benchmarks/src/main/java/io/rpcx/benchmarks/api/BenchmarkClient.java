package io.rpcx.benchmarks.api;

/**
 * A connected client of one system: each method is one remote call of {@link BenchmarkService} over
 * loopback. Implementations are thread-safe and meant to be shared by all benchmark threads, as
 * each library recommends for its client (one gRPC channel, one Dubbo reference, one Feign target
 * with a connection pool, one Netty connection).
 *
 * <p>A method that a system cannot carry (raw Netty has no object serialization) throws {@link
 * UnsupportedOperationException}; {@link BenchmarkSystem#supports} says so in advance. {@link
 * #close()} releases connections and threads (throwing unchecked exceptions only); calls after it
 * fail.
 */
public interface BenchmarkClient extends BenchmarkService, AutoCloseable {

  @Override
  void close();
}
