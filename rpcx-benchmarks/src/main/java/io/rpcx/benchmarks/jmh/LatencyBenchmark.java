package io.rpcx.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * {@link RpcBenchmark} measured as sampled call latency in microseconds; JMH reports the mean and
 * the p0.50, p0.90, p0.99, p0.999 ... percentiles.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LatencyBenchmark extends RpcBenchmark {}
