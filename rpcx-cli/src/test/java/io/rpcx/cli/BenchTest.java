package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.examples.server.ExampleServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rpcx bench} against the example server: its numbers add up, its percentiles are in order,
 * its HTML report holds the histogram, its exit code says whether every call worked, and Ctrl-C
 * still prints what was measured.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BenchTest {
  private static ExampleServer example;
  private static String address;

  @BeforeAll
  static void start() {
    example = ExampleServer.start("--port", "0");
    address = "127.0.0.1:" + example.server().port();
  }

  @AfterAll
  static void stop() {
    example.close();
  }

  @Test
  void aTimedRunReportsConsistentNumbersAndWritesTheHtmlReport(@TempDir Path directory)
      throws IOException {
    Path report = directory.resolve("report.html");
    Cli.Run run =
        Cli.run("bench", address, "echo/echo", "[\"hi\"]", "-c", "4", "-z", "2s",
            "--html", report.toString(), "--json");

    assertEquals(0, run.exit(), run::toString);
    JsonNode summary = Json.parse(run.out(), "summary");
    long count = summary.get("count").asLong();
    assertTrue(count > 0, run::toString);
    assertEquals(count, summary.get("ok").asLong() + summary.get("errors").asLong());
    assertEquals(0, summary.get("errors").asLong(), run::toString);
    double seconds = summary.get("durationSeconds").asDouble();
    assertTrue(seconds >= 2 && seconds < 10, run::toString);
    assertEquals(count / seconds, summary.get("callsPerSecond").asDouble(), count / seconds * 0.01);
    JsonNode latency = summary.get("latencyMs");
    String[] order = {"min", "p50", "p90", "p99", "p99.9", "max"};
    for (int i = 1; i < order.length; i++) {
      assertTrue(latency.get(order[i - 1]).asDouble() <= latency.get(order[i]).asDouble(),
          latency::toString);
    }
    long inBuckets = 0;
    for (JsonNode bucket : summary.get("histogram")) {
      inBuckets += bucket.get("count").asLong();
    }
    assertEquals(summary.get("ok").asLong(), inBuckets);
    assertTrue(summary.get("timeline").size() >= 2, summary::toString);
    assertTrue(run.err().startsWith("[1s] "), run::toString); // progress lines: not a terminal

    String html = Files.readString(report);
    assertTrue(html.startsWith("<!DOCTYPE html>"), html);
    assertTrue(html.contains("<svg"), html);
    assertTrue(!html.contains("http://") || html.replace("http://www.w3.org/2000/svg", "")
        .indexOf("http") < 0, "no resources from elsewhere");
    String tag = "<script type=\"application/json\" id=\"rpcx-bench\">";
    String data = html.substring(html.indexOf(tag) + tag.length(), html.indexOf("</script>"));
    JsonNode embedded = Json.parse(data, "embedded summary");
    assertEquals(count, embedded.get("count").asLong());
    assertEquals(summary.get("histogram"), embedded.get("histogram"));
  }

  @Test
  void aCountedRunMakesExactlyThatManyCallsAndCountsFailuresByStatus() {
    Cli.Run run = Cli.run("bench", address, "orders/findOrder", "[-1]", "-c", "3", "-n", "50");

    assertEquals(15, run.exit(), "every call failed as REMOTE_FAILURE: " + run);
    assertTrue(run.out().startsWith("Summary of orders/findOrder\n  Count        50\n"
        + "  OK           0\n  Errors       50\n"), run::toString);
    assertTrue(run.out().contains("\nNo call succeeded: no latencies to report.\n"), run::toString);
    assertTrue(!run.out().contains("Latency"), "no latency table of zeros: " + run);
    assertTrue(run.out().contains("\nErrors by status:\n  REMOTE_FAILURE       50  (first: orders/"
        + "findOrder on " + address + " threw io.rpcx.examples.api.OrderNotFoundException: no"
        + " order -1)\n"), run::toString);

    Cli.Run json =
        Cli.run("bench", address, "orders/findOrder", "[-1]", "-c", "3", "-n", "10", "--json");
    assertEquals(15, json.exit(), json::toString);
    JsonNode summary = Json.parse(json.out(), "summary");
    assertTrue(summary.get("latencyMs").isNull(), summary::toString);
    assertEquals(0, summary.get("histogram").size(), summary::toString);
  }

  @Test
  void aRunWithSomeFailuresExitsWithTheStatusMostOfThemHad() {
    BenchResult result =
        new BenchResult(
            "orders/findOrder", 1, 90, Map.of("TIMEOUT", 3L, "UNAVAILABLE", 7L),
            Map.of(), Duration.ofSeconds(1), new Histogram(3),
            List.of(), false);
    assertEquals(14, result.exitCode());
    assertEquals(0, new BenchResult("x/y", 1, 1, Map.of(), Map.of(),
        Duration.ofSeconds(1), new Histogram(3), List.of(),
        false).exitCode());
  }

  @Test
  void ctrlCPrintsTheSummaryOfWhatRanAndExits130() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
        "needs kill(1) to send SIGINT");
    Process bench =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                RpcxCli.class.getName(),
                "bench", address, "echo/echo", "[\"hi\"]", "-c", "2", "-z", "60s")
            .start();
    try (BufferedReader progress =
        new BufferedReader(new InputStreamReader(bench.getErrorStream(), StandardCharsets.UTF_8))) {
      String first = progress.readLine(); // "[1s] ...": calls are being made
      assertTrue(first != null && first.startsWith("[1s] "), String.valueOf(first));
      new ProcessBuilder("kill", "-INT", String.valueOf(bench.pid())).start().waitFor();
      assertTrue(bench.waitFor(30, TimeUnit.SECONDS), "bench ended after SIGINT");
      String out = new String(bench.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(130, bench.exitValue(), out);
      assertTrue(
          out.startsWith("Summary of echo/echo (interrupted: the calls answered until then)\n"),
          out);
      long count = Long.parseLong(out.split("\n")[1].replace("Count", "").strip());
      assertTrue(count > 0, out);
      assertTrue(out.contains("\n  Errors       0\n"), out);
      assertTrue(out.contains("\nLatency of successful calls (ms):\n"), out);
    } finally {
      bench.destroyForcibly();
    }
  }

  @Test
  void badOptionsAreOneLineUsageErrors() {
    assertEquals(new Cli.Run(2, "", "give either -n or -z, not both\n"),
        Cli.run("bench", address, "echo/echo", "[\"hi\"]", "-n", "5", "-z", "1s"));
    assertEquals(new Cli.Run(2, "", "-c: 0 (expected: 1 to 10000)\n"),
        Cli.run("bench", address, "echo/echo", "[\"hi\"]", "-c", "0"));
  }
}
