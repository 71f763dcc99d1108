package io.rpcx.benchmarks.jmh;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Deployment;
import io.rpcx.benchmarks.api.Systems;
import io.rpcx.benchmarks.api.Workload;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The system under test for one JMH trial: its server and client are started once before the trial
 * and closed after it, and all benchmark threads share the client.
 *
 * <p>{@code system} and {@code workload} are JMH parameters: override them with {@code -p
 * system=grpc,netty -p workload=echo16}; any name registered in {@link Systems} works, such as
 * {@code netty-flush-per-call} or {@code rpcx-direct}, which are not in the default list.
 */
@State(Scope.Benchmark)
public class Target {

  /** A name registered in {@link Systems}. */
  @Param({"rpcx", "grpc", "grpc-native", "dubbo", "feign", "netty"})
  public String system;

  /** A {@link Workload#id()}. */
  @Param({"echo16", "order", "orders", "string1k", "string100k", "string1m", "bytes1m", "crud"})
  public String workload;

  private Deployment deployment;
  BenchmarkClient client;

  /** Starts the system's server and client; refuses a workload the system cannot carry. */
  @Setup(Level.Trial)
  public void start() throws Exception {
    BenchmarkSystem s = Systems.get(system);
    Workload w = Workload.byId(workload);
    if (!s.supports(w)) {
      throw new UnsupportedOperationException(
          system
              + " does not support workload '"
              + workload
              + "' (raw Netty carries strings and bytes only);"
              + " leave this combination out with -p system=...");
    }
    deployment = Deployment.start(s);
    client = deployment.client();
    // One checked call, so a broken system fails here rather than in the first iteration.
    client.newCall(w).invoke();
  }

  /** Closes the client and the server. */
  @TearDown(Level.Trial)
  public void stop() {
    if (deployment != null) {
      deployment.close();
    }
  }
}
