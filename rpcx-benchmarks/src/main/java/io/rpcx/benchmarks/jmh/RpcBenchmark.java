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
 */
@Warmup(iterations = 5, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public abstract class RpcBenchmark {

  @Benchmark
  @Threads(1)
  public Object threads001(Target target, Caller caller) {
    return caller.call.invoke(target.client);
  }

  @Benchmark
  @Threads(32)
  public Object threads032(Target target, Caller caller) {
    return caller.call.invoke(target.client);
  }

  @Benchmark
  @Threads(128)
  public Object threads128(Target target, Caller caller) {
    return caller.call.invoke(target.client);
  }
}
