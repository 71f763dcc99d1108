package io.rpcx.benchmarks.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.rpcx.core.internal.transport.ByteBufProtoWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to write one long string into a frame's pooled direct buffer: {@code writer} is {@link
 * ByteBufProtoWriter#writeString} (past 4,096 chars: {@code getChars} and the JDK's UTF-8 encoder,
 * 4,096 chars at a time); {@code substrings} is what it did before, {@code
 * substring(...).getBytes(UTF_8)} per 4,096 chars; {@code getBytes} is one {@code getBytes(UTF_8)}
 * of the whole string, which makes a temporary array of its size. Each copies the bytes into the
 * buffer, as a frame needs them.
 *
 * <pre>
 * java -jar rpcx-benchmarks/target/benchmarks.jar LongStringBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LongStringBenchmark {

  /** Chars in the string. */
  @Param({"16384", "1048576"})
  public int length;

  /** {@code ascii}: Latin letters; {@code latin1}: one 'é' in eight; {@code cjk}: all 3-byte. */
  @Param({"ascii", "latin1", "cjk"})
  public String text;

  private static final int CHUNK = 4096;
  private String value;
  private ByteBuf buffer;

  @Setup
  public void setUp() {
    value = StringEncodingBenchmark.text(text, length);
    buffer = PooledByteBufAllocator.DEFAULT.directBuffer(3 * length + 16);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    buffer.release();
  }

  @Benchmark
  public int writer() {
    buffer.clear();
    new ByteBufProtoWriter(buffer).writeString(value);
    return buffer.writerIndex();
  }

  @Benchmark
  public int substrings() {
    buffer.clear();
    for (int from = 0; from < length; from += CHUNK) {
      String chunk = value.substring(from, Math.min(from + CHUNK, length));
      buffer.writeBytes(chunk.getBytes(StandardCharsets.UTF_8));
    }
    return buffer.writerIndex();
  }

  @Benchmark
  public int getBytes() {
    buffer.clear();
    buffer.writeBytes(value.getBytes(StandardCharsets.UTF_8));
    return buffer.writerIndex();
  }
}
