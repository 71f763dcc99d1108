package io.rpcx.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link RpcBenchmark}'s call made by 1,000 virtual threads at once (JMH's {@code
 * -Djmh.executor=VIRTUAL}: each benchmark thread is a virtual thread), each blocking on its call;
 * throughput in calls per second, all callers together. Compare with {@code
 * ThroughputBenchmark.threads032}, 32 platform threads, on the same system and workload. Needs
 * Java 21 or later (run the jar with a JDK 21+ {@code java}); the forks run with the same fixed,
 * pre-touched heap as {@link RpcBenchmark}'s. Options given with {@code -jvmArgsAppend} replace
 * these, executor included.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch", "-Djmh.executor=VIRTUAL"})
public class VirtualCallersBenchmark {

  @Benchmark
  @Threads(1000)
  public Object virtual1000(Caller caller) {
    return caller.call.invoke();
  }
}
