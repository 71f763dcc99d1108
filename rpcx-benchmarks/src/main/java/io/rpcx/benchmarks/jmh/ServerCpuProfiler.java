package io.rpcx.benchmarks.jmh;

import io.rpcx.benchmarks.api.ServerJvm;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation of the server, when it runs in a JVM of its own ({@code
 * -Drpcx.bench.server=own-jvm}, see {@link Target}): its JVM's CPU time (user + system, all
 * threads; {@link ServerJvm#cpuNanos()}) at the end of each measured iteration minus at its start,
 * divided by the operations the iteration completed. Reported as {@code server.cpu.time.norm} in
 * µs/op; with it, {@link ProcessCpuProfiler}'s {@code cpu.time.norm} is the client's JVM alone.
 *
 * <p>The kernel counts CPU time in clock ticks (10 ms on Linux), so an iteration should spend a
 * second of the server's CPU or more. JMH starts the server inside a fork's first iteration, which
 * therefore has no figure: give the run a warm-up iteration. A fork with no server JVM fails the
 * benchmark with a message that says how to start one, rather than report nothing.
 *
 * <pre>java -jar rpcx-benchmarks/target/benchmarks.jar ThroughputBenchmark.threads032 \
 *     -p system=grpc-on-rpcx -p workload=echo16 -jvmArgsPrepend -Drpcx.bench.server=own-jvm \
 *     -prof io.rpcx.benchmarks.jmh.ServerCpuProfiler \
 *     -prof io.rpcx.benchmarks.jmh.ProcessCpuProfiler</pre>
 */
public final class ServerCpuProfiler implements InternalProfiler {
  /** The servers' CPU time at the iteration's start, or -1 before the trial started a server. */
  private long cpuAtStart;

  @Override
  public String getDescription() {
    return "CPU time of the server JVM (-Drpcx.bench.server=own-jvm) per operation (µs/op)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    // JMH runs the trial's set-up (Target.start) inside the first iteration, after this: the
    // first iteration of a fork, a warm-up one unless there are none, has no server yet.
    cpuAtStart = ServerJvm.cpuNanos().orElse(-1);
  }

  @Override
  public List<? extends Result<?>> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    // The trial's tear-down, inside its last iteration, has closed the server by now:
    // ServerJvm counts its CPU time up to its close.
    long cpuNanos =
        ServerJvm.cpuNanos()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "ServerCpuProfiler: this fork started no server JVM; run with"
                            + " -jvmArgsPrepend -Drpcx.bench.server=own-jvm"));
    long operations = result.getMetadata().getAllOps();
    if (cpuAtStart < 0 || operations <= 0) {
      return List.of();
    }
    return List.of(
        new ScalarResult(
            "server.cpu.time.norm",
            (cpuNanos - cpuAtStart) / 1000.0 / operations,
            "µs/op",
            AggregationPolicy.AVG));
  }
}
