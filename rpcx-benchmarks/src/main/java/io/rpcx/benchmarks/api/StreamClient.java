package io.rpcx.benchmarks.api;

/**
 * A connected client of one system's server stream: each {@link #stream} is one remote call that
 * asks the server for {@code messages} elements and consumes them as that library's users do.
 * Thread-safe and shared by all benchmark threads, like {@link BenchmarkClient}.
 */
public interface StreamClient extends AutoCloseable {

  /**
   * Elements a client that requests in batches asks for up front; it asks for {@link #REPLENISH}
   * more each time it has taken that many, as Reactor's {@code limitRate(128)} does.
   */
  int PREFETCH = 128;

  /** Elements a client that requests in batches asks for each time it has taken as many (75%). */
  int REPLENISH = 96;

  /**
   * Makes one server-stream call for {@code messages} elements of {@code payload}, takes every
   * element (checking its length), and waits until the stream ends.
   *
   * @return the number of elements received, always {@code messages}
   * @throws IllegalStateException if the stream failed, delivered a wrong element, ended with
   *     another count, or did not end within {@link StreamTally#TIMEOUT_SECONDS} seconds
   */
  long stream(int messages, StreamPayload payload);

  @Override
  void close();
}
