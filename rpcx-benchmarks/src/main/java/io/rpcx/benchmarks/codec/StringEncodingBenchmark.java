package io.rpcx.benchmarks.codec;

import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.Utf8Strings;
import java.nio.charset.StandardCharsets;
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
 * Time to write one string into a heap array as the codec does: {@code inPlace} is {@link
 * ByteArrayProtoWriter#writeString} (encoded in place up to {@code
 * Utf8Strings.MAX_ENCODED_IN_PLACE} chars, by the JDK's {@code getBytes} past it); {@code
 * getBytes} is the JDK's {@code getBytes(UTF_8)} copied in after its length, what the writer did
 * before; {@code loop} is the in-place loop alone at every length (no length written). They set
 * the threshold between the two.
 *
 * <pre>
 * java -jar rpcx-benchmarks/target/benchmarks.jar StringEncodingBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class StringEncodingBenchmark {

  /** Chars in the string. */
  @Param({"8", "16", "32", "128", "1024"})
  public int length;

  /** {@code ascii}: Latin letters; {@code latin1}: one 'é' in eight; {@code cjk}: all 3-byte. */
  @Param({"ascii", "latin1", "cjk"})
  public String text;

  private String value;
  private final byte[] buffer = new byte[16 * 1024];

  @Setup
  public void setUp() {
    value = text(text, length);
  }

  /**
   * {@code length} chars of {@code kind}: {@code ascii} (Latin letters), {@code latin1} (one 'é'
   * in eight) or {@code cjk} (all 3-byte).
   */
  static String text(String kind, int length) {
    StringBuilder builder = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      switch (kind) {
        case "ascii":
          builder.append((char) ('a' + i % 26));
          break;
        case "latin1":
          builder.append(i % 8 == 7 ? '\u00e9' : (char) ('a' + i % 26));
          break;
        case "cjk":
          builder.append((char) (0x4e00 + i % 512));
          break;
        default:
          throw new IllegalArgumentException("text: " + kind + " (expected: ascii, latin1, cjk)");
      }
    }
    return builder.toString();
  }

  @Benchmark
  public int inPlace() {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter(buffer);
    out.writeString(value);
    return out.position();
  }

  @Benchmark
  public int getBytes() {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter(buffer);
    out.writeByteArray(value.getBytes(StandardCharsets.UTF_8));
    return out.position();
  }

  @Benchmark
  public int loop() {
    int ascii = Utf8Strings.encodeAscii(value, buffer, 0);
    return ascii == value.length() ? ascii : Utf8Strings.encode(value, ascii, buffer, ascii);
  }
}
