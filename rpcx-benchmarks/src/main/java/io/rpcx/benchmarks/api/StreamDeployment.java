package io.rpcx.benchmarks.api;

/**
 * A server and a {@link StreamClient} of one {@link StreamSystem}, started together in this JVM and
 * closed together: what a streaming benchmark trial talks to.
 *
 * <pre>{@code
 * try (StreamDeployment d = StreamDeployment.start(StreamSystems.get("grpc"))) {
 *   d.client().stream(1000, StreamPayload.TEXT_16B);
 * }
 * }</pre>
 */
public final class StreamDeployment implements AutoCloseable {
  private final BenchmarkServer server;
  private final StreamClient client;

  private StreamDeployment(BenchmarkServer server, StreamClient client) {
    this.server = server;
    this.client = client;
  }

  /**
   * Starts {@code system}'s server, then connects its client; on failure closes what it started.
   */
  public static StreamDeployment start(StreamSystem system) throws Exception {
    BenchmarkServer server = system.startServer();
    try {
      return new StreamDeployment(server, system.connect(server.port()));
    } catch (Exception | Error e) {
      try {
        server.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  public StreamClient client() {
    return client;
  }

  /** Closes the client, then the server; the first failure is thrown with later ones suppressed. */
  @Override
  public void close() {
    try {
      client.close();
    } catch (RuntimeException e) {
      try {
        server.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
    server.close();
  }
}
