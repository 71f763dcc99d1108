package io.rpcx.benchmarks.jmh;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Deployment;
import io.rpcx.benchmarks.api.ServerJvm;
import io.rpcx.benchmarks.api.Systems;
import io.rpcx.benchmarks.api.Workload;
import java.util.List;
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
 *
 * <p>The server runs in the fork's JVM, beside the client. With {@code -Drpcx.bench.server=own-jvm}
 * in the fork's options ({@code -jvmArgsPrepend}, which keeps the benchmark's own) it runs in a JVM
 * of its own ({@link ServerJvm}, with the options of {@code -Drpcx.bench.serverJvmOptions}, by
 * default {@value #SERVER_JVM_OPTIONS}), so that {@link ServerCpuProfiler} can tell the server's
 * CPU time from the client's ({@link ProcessCpuProfiler} then counts the client's JVM alone).
 */
@State(Scope.Benchmark)
public class Target {
  /** The server JVM's options unless {@code rpcx.bench.serverJvmOptions} says otherwise. */
  static final String SERVER_JVM_OPTIONS = "-Xms2g -Xmx2g -XX:+AlwaysPreTouch";

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
    String where = System.getProperty("rpcx.bench.server", "same-jvm");
    if (where.equals("own-jvm")) {
      String options = System.getProperty("rpcx.bench.serverJvmOptions", SERVER_JVM_OPTIONS);
      List<String> jvmOptions =
          options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
      deployment = Deployment.connect(s, ServerJvm.start(system, jvmOptions));
    } else if (where.equals("same-jvm")) {
      deployment = Deployment.start(s);
    } else {
      throw new IllegalArgumentException(
          "rpcx.bench.server: " + where + " (expected: same-jvm or own-jvm)");
    }
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
