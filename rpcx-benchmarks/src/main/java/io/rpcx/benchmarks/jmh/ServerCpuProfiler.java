package io.rpcx.benchmarks.jmh;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation of the server, when it runs in a JVM of its own ({@code
 * -Drpcx.bench.server=own-jvm}, see {@link Target}): the CPU time (user + system, all threads) of
 * the fork's child processes at the end of each measured iteration minus at its start, divided by
 * the operations the iteration completed. Reported as {@code server.cpu.time.norm} in µs/op; with
 * it, {@link ProcessCpuProfiler}'s {@code cpu.time.norm} is the client's JVM alone.
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
  /** The server's CPU time at the iteration's start, or -1 before the trial started the server. */
  private long cpuAtStart;

  @Override
  public String getDescription() {
    return "CPU time of the server JVM (the fork's child processes) per operation (µs/op)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    // JMH runs the trial's set-up (Target.start) inside the first iteration, after this: the
    // first iteration of a fork, a warm-up one unless there are none, has no server yet.
    List<ProcessHandle> children = children();
    cpuAtStart = children.isEmpty() ? -1 : cpuNanos(children);
  }

  @Override
  public List<? extends Result<?>> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    List<ProcessHandle> children = children();
    if (children.isEmpty()) {
      throw new IllegalStateException(
          "ServerCpuProfiler: this fork started no server JVM; run with"
              + " -jvmArgsPrepend -Drpcx.bench.server=own-jvm");
    }
    long operations = result.getMetadata().getAllOps();
    if (cpuAtStart < 0 || operations <= 0) {
      return List.of();
    }
    long cpuNanos = cpuNanos(children) - cpuAtStart;
    return List.of(
        new ScalarResult(
            "server.cpu.time.norm",
            cpuNanos / 1000.0 / operations,
            "µs/op",
            AggregationPolicy.AVG));
  }

  private static List<ProcessHandle> children() {
    return ProcessHandle.current().children().toList();
  }

  /** The CPU time of {@code processes} together, which each must report. */
  private static long cpuNanos(List<ProcessHandle> processes) {
    long nanos = 0;
    for (ProcessHandle process : processes) {
      Optional<Duration> cpu = process.info().totalCpuDuration();
      if (cpu.isEmpty()) {
        throw new IllegalStateException(
            "ServerCpuProfiler: the CPU time of process "
                + process.pid()
                + " is not available on this system");
      }
      nanos += cpu.get().toNanos();
    }
    return nanos;
  }
}
