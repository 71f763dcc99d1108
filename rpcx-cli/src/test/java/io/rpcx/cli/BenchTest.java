package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.examples.server.ExampleServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rpcx bench} against the example server: its numbers add up, its percentiles are in order,
 * and its HTML report holds the histogram.
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

    assertEquals(0, run.exit(), run::toString);
    assertTrue(run.out().startsWith("Summary of orders/findOrder\n  Count        50\n"
        + "  OK           0\n  Errors       50\n"), run::toString);
    assertTrue(run.out().contains("\nErrors by status:\n  REMOTE_FAILURE       50  (first: orders/"
        + "findOrder on " + address + " threw io.rpcx.examples.api.OrderNotFoundException: no"
        + " order -1)\n"), run::toString);
  }

  @Test
  void badOptionsAreOneLineUsageErrors() {
    assertEquals(new Cli.Run(2, "", "give either -n or -z, not both\n"),
        Cli.run("bench", address, "echo/echo", "[\"hi\"]", "-n", "5", "-z", "1s"));
    assertEquals(new Cli.Run(2, "", "-c: 0 (expected: 1 to 10000)\n"),
        Cli.run("bench", address, "echo/echo", "[\"hi\"]", "-c", "0"));
  }
}
