package io.rpcx.benchmarks.api;

/**
 * One RPC system under test: knows how to start its server and connect its client over loopback.
 * Registered by name in {@link Systems}.
 *
 * <p>Implementations are stateless; each {@link #startServer()} and {@link #connect} call creates
 * new, independent resources that the caller closes.
 */
public interface BenchmarkSystem {

  /** The name used on command lines and in results, such as {@code grpc}. */
  String name();

  /** One line for reports: library, version, protocol, serialization and threading. */
  String description();

  /** Whether this system can run {@code workload}. */
  boolean supports(Workload workload);

  /** Starts a server bound to 127.0.0.1 on an ephemeral port. */
  BenchmarkServer startServer() throws Exception;

  /** Connects a client to the server at 127.0.0.1:{@code port}. */
  BenchmarkClient connect(int port) throws Exception;
}
