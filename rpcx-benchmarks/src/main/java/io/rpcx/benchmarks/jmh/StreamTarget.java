package io.rpcx.benchmarks.jmh;

import io.rpcx.benchmarks.api.StreamClient;
import io.rpcx.benchmarks.api.StreamDeployment;
import io.rpcx.benchmarks.api.StreamPayload;
import io.rpcx.benchmarks.api.StreamSystems;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The system under test for one trial of {@link StreamBenchmark}: its server and client are started
 * once before the trial and closed after it, and all benchmark threads share the client (so 32
 * threads are 32 streams on one connection). Parameters: {@code system} (a name registered in
 * {@link StreamSystems}, e.g. {@code rpcx-direct}, which is not in the default list) and {@code
 * payload} ({@code text16}, {@code text1k}).
 */
@State(Scope.Benchmark)
public class StreamTarget {

  /** A name registered in {@link StreamSystems}. */
  @Param({"rpcx", "grpc", "grpc-ready", "grpc-batch", "grpc-ready-batch", "netty"})
  public String system;

  /** A {@link StreamPayload#id()}. */
  @Param({"text16", "text1k"})
  public String payload;

  private StreamDeployment deployment;
  StreamClient client;
  StreamPayload element;

  /** Starts the system's server and client, and makes one checked stream. */
  @Setup(Level.Trial)
  public void start() throws Exception {
    element = StreamPayload.byId(payload);
    deployment = StreamDeployment.start(StreamSystems.get(system));
    client = deployment.client();
    // One checked stream, so a broken system fails here rather than in the first iteration.
    client.stream(StreamBenchmark.MESSAGES, element);
  }

  /** Closes the client and the server. */
  @TearDown(Level.Trial)
  public void stop() {
    if (deployment != null) {
      deployment.close();
    }
  }
}
