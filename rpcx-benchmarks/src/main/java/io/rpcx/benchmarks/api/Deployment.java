package io.rpcx.benchmarks.api;

/**
 * A server and a client of one system, started together in this JVM and closed together: what a
 * benchmark trial or a stress run talks to.
 *
 * <pre>{@code
 * try (Deployment d = Deployment.start(Systems.get("grpc"))) {
 *   d.client().echo("hello");
 * }
 * }</pre>
 */
public final class Deployment implements AutoCloseable {
  private final BenchmarkSystem system;
  private final BenchmarkServer server;
  private final BenchmarkClient client;

  private Deployment(BenchmarkSystem system, BenchmarkServer server, BenchmarkClient client) {
    this.system = system;
    this.server = server;
    this.client = client;
  }

  /**
   * Starts {@code system}'s server, then connects its client; on failure closes what it started.
   */
  public static Deployment start(BenchmarkSystem system) throws Exception {
    return connect(system, system.startServer());
  }

  /**
   * Connects {@code system}'s client to {@code server}, a server of that system started elsewhere
   * (such as a {@link ServerJvm}); on failure closes the server.
   */
  public static Deployment connect(BenchmarkSystem system, BenchmarkServer server)
      throws Exception {
    try {
      return new Deployment(system, server, system.connect(server.port()));
    } catch (Exception | Error e) {
      closeQuietly(server, e);
      throw e;
    }
  }

  public BenchmarkSystem system() {
    return system;
  }

  public BenchmarkServer server() {
    return server;
  }

  public BenchmarkClient client() {
    return client;
  }

  /** Closes the client, then the server; the first failure is thrown with later ones suppressed. */
  @Override
  public void close() {
    RuntimeException failure = null;
    try {
      client.close();
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      server.close();
    } catch (RuntimeException e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void closeQuietly(BenchmarkServer closeable, Throwable primary) {
    try {
      closeable.close();
    } catch (RuntimeException e) {
      primary.addSuppressed(e);
    }
  }
}
