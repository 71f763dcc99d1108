package io.rpcx.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run keeps of its JMH JSON: every result, with the settings that make it reproducible. */
class JmhTableTest {
  private static final String THROUGHPUT =
      """
      {"jmhVersion": "1.37", "benchmark": "io.rpcx.benchmarks.jmh.ThroughputBenchmark.threads032",
       "mode": "thrpt", "threads": 32, "forks": 3, "jdkVersion": "17.0.15",
       "vmName": "OpenJDK 64-Bit Server VM", "jvmArgs": ["-Xms4g", "-Xmx4g"],
       "warmupIterations": 3, "warmupTime": "3 s", "measurementIterations": 5,
       "measurementTime": "3 s", "params": {"system": "%s", "workload": "echo16"},
       "primaryMetric": {"score": %s, "scoreError": 6685.2, "scoreUnit": "ops/s",
                         "rawData": [[1.0, 2.0]]},
       "secondaryMetrics": {
         "gc.alloc.rate": {"score": 200.5, "scoreUnit": "MB/sec"},
         "gc.alloc.rate.norm": {"score": 2235.4, "scoreUnit": "B/op"},
         "context-switches": {"score": 1.5712, "scoreUnit": "#/op"}}}
      """;
  private static final String LATENCY =
      """
      {"jmhVersion": "1.37", "benchmark": "io.rpcx.benchmarks.jmh.LatencyBenchmark.threads001",
       "mode": "sample", "threads": 1, "forks": 3, "jdkVersion": "17.0.15",
       "vmName": "OpenJDK 64-Bit Server VM", "jvmArgs": ["-Xms4g", "-Xmx4g"],
       "warmupIterations": 3, "warmupTime": "3 s", "measurementIterations": 5,
       "measurementTime": "3 s", "params": {"system": "rpcx", "workload": "echo16"},
       "primaryMetric": {"score": 90.123, "scoreError": "NaN", "scoreUnit": "us/op",
         "scorePercentiles": {"50.0": 85.2, "90.0": 101.0, "99.0": 178.7, "99.9": 301.9}},
       "secondaryMetrics": {"p0.50": {"score": 85.2, "scoreUnit": "us/op"}}}
      """;

  @Test
  void everyResultIsARowAndSharedSettingsAreWrittenOnce() throws Exception {
    JsonNode results =
        json(
            "["
                + THROUGHPUT.formatted("rpcx", "103961.3")
                + ","
                + THROUGHPUT.formatted("netty", "126481.0")
                + "]");
    assertEquals(
        """
        ### jmh-targets.json.gz

        JMH 1.37; JDK 17.0.15 (OpenJDK 64-Bit Server VM); JVM options `-Xms4g -Xmx4g`; mode thrpt; \
        threads 32; forks 3; warm-up 3 × 3 s; measured 5 × 3 s.

        | benchmark | system | workload | score | ± 99.9% | unit | gc.alloc.rate.norm (B/op) \
        | context-switches (#/op) |
        | --- | --- | --- | ---: | ---: | --- | ---: | ---: |
        | ThroughputBenchmark.threads032 | rpcx | echo16 | 103,961 | 6,685 | ops/s | 2,235 | 1.57 |
        | ThroughputBenchmark.threads032 | netty | echo16 | 126,481 | 6,685 | ops/s | 2,235 | 1.57 |

        """,
        JmhTable.table("jmh-targets.json.gz", results));
  }

  @Test
  void settingsThatDifferGetAColumnAndSampledLatencyItsPercentiles() throws Exception {
    String table =
        JmhTable.table(
            "mixed.json", json("[" + THROUGHPUT.formatted("rpcx", "5.5") + "," + LATENCY + "]"));
    assertTrue(
        table.contains(
            "JMH 1.37; JDK 17.0.15 (OpenJDK 64-Bit Server VM); JVM options `-Xms4g -Xmx4g`;"
                + " forks 3; warm-up 3 × 3 s; measured 5 × 3 s.\n"),
        table);
    assertTrue(
        table.contains(
            "| benchmark | system | workload | mode | threads | score | ± 99.9% | unit | p50 | p90"
                + " | p99 | p99.9 | gc.alloc.rate.norm (B/op) | context-switches (#/op) |\n"),
        table);
    assertTrue(
        table.contains(
            "| ThroughputBenchmark.threads032 | rpcx | echo16 | thrpt | 32 | 5.50 | 6,685 | ops/s"
                + " |  |  |  |  | 2,235 | 1.57 |\n"),
        table);
    assertTrue(
        table.contains(
            "| LatencyBenchmark.threads001 | rpcx | echo16 | sample | 1 | 90.1 |  | us/op | 85.2"
                + " | 101 | 179 | 302 |  |  |\n"),
        table);
  }

  @Test
  void gzippedFilesAreReadAndOthersRefusedByName(@TempDir Path dir) throws Exception {
    Path gz = dir.resolve("jmh-x.json.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(("[" + LATENCY + "]").getBytes(StandardCharsets.UTF_8));
    }
    assertEquals(1, JmhResults.read(gz).size());

    Path notJmh = Files.writeString(dir.resolve("summary.json"), "{\"a\": 1}");
    assertEquals(
        notJmh + ": not a JMH result file (expected: a JSON array)",
        assertThrows(IOException.class, () -> JmhResults.read(notJmh)).getMessage());
  }

  @Test
  void numbersKeepFourSignificantDigitsAtMost() {
    assertEquals("1,234,568", JmhTable.number(1234567.8));
    assertEquals("123", JmhTable.number(123.4));
    assertEquals("12.3", JmhTable.number(12.34));
    assertEquals("1.23", JmhTable.number(1.234));
    assertEquals("0.0123", JmhTable.number(0.012345));
    assertEquals("0", JmhTable.number(0));
    assertEquals("", JmhTable.number(Double.NaN));
  }

  private static JsonNode json(String text) throws IOException {
    return new ObjectMapper().readTree(text);
  }
}
