package io.rpcx.benchmarks.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The benchmark operations: one remote call of the trial's workload on the trial's system, at 1, 32
 * and 128 client threads (JMH cannot take the thread count as a parameter, so there is one method
 * per count). The subclasses choose the mode: {@link ThroughputBenchmark} (ops/s) and {@link
 * LatencyBenchmark} (sampled latency with percentiles).
 *
 * <p>Each call's reply is checked (see {@link io.rpcx.benchmarks.api.Workload}), and returned so
 * JMH consumes it.
 *
 * <p>Forks run with a fixed 4 GiB heap, touched at start ({@code -XX:+AlwaysPreTouch}): without it,
 * the first pass of a growing young generation through the untouched heap makes the kernel zero
 * every fresh page inside the measurement ({@code clear_page_erms} at 17% of CPU), which cut RPCX's
 * echo16 throughput at 32 threads from ~100k to ~60k calls/s for ten seconds of each fork and
 * penalises each system by its allocation rate rather than its speed. Options given with {@code
 * -jvmArgsAppend} replace these.
 */
@Warmup(iterations = 5, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public abstract class RpcBenchmark {

  @Benchmark
  @Threads(1)
  public Object threads001(Caller caller) {
    return caller.call.invoke();
  }

  @Benchmark
  @Threads(32)
  public Object threads032(Caller caller) {
    return caller.call.invoke();
  }

  @Benchmark
  @Threads(128)
  public Object threads128(Caller caller) {
    return caller.call.invoke();
  }
}
