package io.rpcx.benchmarks.codec;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to encode and to decode the seed types with RPCX's codec and with protobuf-java's generated
 * code for equivalent messages, single-threaded, no network. Sizes are printed by {@link
 * CodecSizes} and checked by {@code CodecSizeTest}.
 *
 * <pre>
 * java -jar rpcx-benchmarks/target/benchmarks.jar CodecBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public class CodecBenchmark {

  @Param({"order", "orders", "info", "infoPhoto", "infoRecord"})
  public String shape;

  /**
   * {@code rpcx}: byte arrays in and out; {@code rpcx-netty}: a pooled direct buffer, as the
   * transport does; {@code protobuf}: generated code over byte arrays.
   */
  @Param({"rpcx", "rpcx-netty", "protobuf"})
  public String codec;

  private CodecShapes.Shape target;
  private final byte[] buffer = new byte[2 * 1024 * 1024];
  private int length;

  @Setup
  public void setUp() {
    target = CodecShapes.shape(codec, shape);
    length = target.encode(buffer);
  }

  @Benchmark
  public int encode() {
    return target.encode(buffer);
  }

  @Benchmark
  public Object decode() {
    return target.decode(buffer, length);
  }
}
