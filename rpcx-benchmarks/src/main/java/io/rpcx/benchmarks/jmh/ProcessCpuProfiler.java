package io.rpcx.benchmarks.jmh;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation of the whole benchmark JVM (client and server of a call, since they share
 * it), counted over exactly each measured iteration: the process's CPU time (user + system, all
 * threads) at the iteration's end minus at its start, divided by the operations the iteration
 * completed. Reported as {@code cpu.time.norm} in µs/op.
 *
 * <p>It measures what {@code -prof perfnorm} measures with perf's {@code task-clock} event (the two
 * agreed within 1% on the 16-byte echo: 24.3 vs 24 µs/op for RPCX, 194.9 vs 195 µs/op for grpc-java
 * at 32 threads), without needing perf installed and allowed to count, which many machines lack.
 * Like any CPU-per-call figure on a machine whose cores are oversubscribed, it grows with the load
 * of other processes (threads that park and wake more often): measure on an idle machine.
 *
 * <pre>java -jar rpcx-benchmarks/target/benchmarks.jar ThroughputBenchmark.threads032 \
 *     -prof io.rpcx.benchmarks.jmh.ProcessCpuProfiler -prof gc</pre>
 */
public final class ProcessCpuProfiler implements InternalProfiler {
  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long cpuAtStart;

  @Override
  public String getDescription() {
    return "CPU time of the whole JVM per operation, over each iteration (µs/op)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    cpuAtStart = os.getProcessCpuTime();
  }

  @Override
  public List<? extends Result<?>> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpuNanos = os.getProcessCpuTime() - cpuAtStart;
    long operations = result.getMetadata().getAllOps();
    if (cpuAtStart < 0 || operations <= 0) {
      return List.of();
    }
    return List.of(
        new ScalarResult(
            "cpu.time.norm", cpuNanos / 1000.0 / operations, "µs/op", AggregationPolicy.AVG));
  }
}
