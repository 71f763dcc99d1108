package io.rpcx.benchmarks.api;

/**
 * One system under test in the streaming benchmark: starts a server with a server-stream method
 * and connects a {@link StreamClient} to it over loopback. Registered by name in {@link
 * StreamSystems}. Stateless: each call creates new resources that the caller closes.
 */
public interface StreamSystem {

  /** The name used on command lines and in results, such as {@code grpc-ready}. */
  String name();

  /** One line for reports: library, version, how the server writes and how the client reads. */
  String description();

  /** Starts a server bound to 127.0.0.1 on an ephemeral port. */
  BenchmarkServer startServer() throws Exception;

  /** Connects a client to the server at 127.0.0.1:{@code port}. */
  StreamClient connect(int port) throws Exception;
}
