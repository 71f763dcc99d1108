package io.rpcx.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Server streaming: each invocation is one call of the trial's system that asks the server for a
 * stream of {@value #MESSAGES} elements of the trial's {@code payload}, takes them all as that
 * library's users do (checking each one and the count) and waits for the end (see {@link
 * StreamTarget}, {@link io.rpcx.benchmarks.api.StreamClient}). Each element counts as one
 * operation ({@link OperationsPerInvocation}), so the score is in messages per second, and with
 * {@code -prof gc} {@code gc.alloc.rate.norm} is in bytes per message.
 *
 * <p>{@link #streams01} keeps one stream open at a time. {@link #streams32} runs 32 benchmark
 * threads, each with its own stream, on the one shared client: 32 streams are open at every moment
 * of the measurement (each thread starts its next stream as soon as one ends), rather than 32
 * started together and waited for together, whose stragglers would leave fewer open towards the end
 * of each operation.
 *
 * <p>{@link #setup01} is the cost the long streams amortise: a stream of one element, one at a
 * time, in streams per second (call set-up, one message, the end). At {@value #MESSAGES} elements
 * the set-up is {@code (1 / setup01) / (MESSAGES / streams01)} of a stream's time.
 *
 * <p>Forks as {@link RpcBenchmark}'s: a fixed, pre-touched 4 GiB heap for every system.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class StreamBenchmark {
  /** Elements per stream: enough that a call's set-up is well under 1% of a stream's time. */
  public static final int MESSAGES = 10_000;

  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(MESSAGES)
  public long streams01(StreamTarget target) {
    return target.client.stream(MESSAGES, target.element);
  }

  @Benchmark
  @Threads(32)
  @OperationsPerInvocation(MESSAGES)
  public long streams32(StreamTarget target) {
    return target.client.stream(MESSAGES, target.element);
  }

  @Benchmark
  @Threads(1)
  public long setup01(StreamTarget target) {
    return target.client.stream(1, target.element);
  }
}
