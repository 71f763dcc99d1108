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

  /**
   * A new operation of {@code workload} for one benchmark thread, bound to this client. This is
   * where a workload's payload takes the form the client's users hold: by default the POJOs of
   * {@link Workload#payload()}, called through the methods above ({@link Workload#newCall}). A
   * client whose users hold another model overrides it, converts the payload once here, outside the
   * measurement, and makes each call with that model ({@code grpc-native}: generated protobuf
   * messages in, generated messages out). Whatever the form, each reply is checked as cheaply as
   * {@link Workload} checks the POJOs.
   *
   * <p>Called once per thread and trial, never inside the measured loop.
   */
  default Workload.Call newCall(Workload workload) {
    return workload.newCall(this);
  }

  @Override
  void close();
}
