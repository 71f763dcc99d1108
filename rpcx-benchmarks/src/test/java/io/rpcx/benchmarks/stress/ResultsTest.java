package io.rpcx.benchmarks.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Percentiles, cell summaries, progress and the CSV files. */
class ResultsTest {

  @Test
  void percentilesUseTheNearestRank() {
    long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertEquals(5, Percentiles.of(sorted, 50));
    assertEquals(10, Percentiles.of(sorted, 99));
    assertEquals(1, Percentiles.of(sorted, 1));
    assertEquals(10, Percentiles.of(sorted, 100));
    assertEquals(7, Percentiles.of(new long[] {7}, 99.9));
    assertTrue(Double.isNaN(Percentiles.of(new long[0], 50)));
  }

  @Test
  void aCellDropsItsFirstRunAndAveragesTheRest() {
    CellSummary cell =
        CellSummary.of(
            List.of(
                run(0, 1000, RunResult.Status.DROPPED, ""),
                run(1, 100, RunResult.Status.OK, ""),
                run(2, 300, RunResult.Status.OK, "")));
    assertFalse(cell.failed);
    assertEquals(2, cell.countedRuns);
    assertEquals(200, cell.meanMillis, 1e-9);
    // 10 threads x 20 requests: 2000 TPS at 100 ms, 666.7 TPS at 300 ms.
    assertEquals((2000 + 2000 / 3.0) / 2, cell.meanTps, 1e-6);
    assertEquals(0.002, cell.p50Millis, 1e-12);
  }

  @Test
  void aCellWithAFailedRunIsFailedWithItsReason() {
    CellSummary cell =
        CellSummary.of(
            List.of(
                run(0, 1000, RunResult.Status.DROPPED, ""),
                run(1, 100, RunResult.Status.OK, ""),
                run(2, Double.NaN, RunResult.Status.FAILED, "exceeded the cell's time limit")));
    assertTrue(cell.failed);
    assertEquals("run 2: exceeded the cell's time limit", cell.reason);

    CellSummary notStarted =
        CellSummary.of(List.of(RunResult.notStarted("rpcx", 10, 20, "system not available")));
    assertTrue(notStarted.failed);
    assertEquals("system not available", notStarted.reason);
    assertTrue(Double.isNaN(notStarted.meanTps));
  }

  @Test
  void csvQuotesOnlyWhatItMust() {
    assertEquals("plain", Csv.escape("plain"));
    assertEquals("\"a,b\"", Csv.escape("a,b"));
    assertEquals("\"say \"\"hi\"\"\"", Csv.escape("say \"hi\""));
    assertEquals("\"two\nlines\"", Csv.escape("two\nlines"));
    assertEquals("x,1,,\"y,z\"\n", Csv.line("x", 1, Csv.number(Double.NaN, 2), "y,z"));
  }

  @Test
  void csvFilesHaveOneLinePerRunAndPerCell(@TempDir Path dir) throws Exception {
    List<RunResult> runs =
        List.of(
            run(0, 1000, RunResult.Status.DROPPED, ""),
            run(1, 100, RunResult.Status.OK, ""),
            RunResult.notStarted("rpcx", 10, 20, "system not available: no, really"));
    Csv.writeRuns(dir.resolve("runs.csv"), runs);
    List<String> lines = Files.readAllLines(dir.resolve("runs.csv"), StandardCharsets.UTF_8);
    assertEquals(
        List.of(
            Csv.RUNS_HEADER,
            "grpc,10,20,0,1000.000,200.0,0,DROPPED,0.002,0.002,",
            "grpc,10,20,1,100.000,2000.0,0,OK,0.002,0.002,",
            "rpcx,10,20,,,,0,FAILED,,,\"system not available: no, really\""),
        lines);

    Csv.writeCells(dir.resolve("cells.csv"), List.of(CellSummary.of(runs.subList(0, 2))));
    assertEquals(
        List.of(Csv.CELLS_HEADER, "grpc,10,20,1,100.000,2000.0,0.002,0.002,OK,"),
        Files.readAllLines(dir.resolve("cells.csv"), StandardCharsets.UTF_8));
  }

  @Test
  void progressEstimatesFromCallsDone() {
    Progress p = new Progress(4, 400, 0);
    p.cellSkipped(100);
    p.cellDone(100);
    // 100 of the 300 calls that will run took 10 s: 20 s to go.
    assertEquals("cell 2/4, elapsed 10s, ETA 20s", p.status(10_000_000_000L));
    assertEquals("1h01m01s", Progress.format(Duration.ofSeconds(3661)));
    assertEquals("2m05s", Progress.format(Duration.ofSeconds(125)));
  }

  @Test
  void theSummaryToKeepHasTheCommandTheMachineAndEveryCell() {
    StressOptions options =
        StressOptions.parse(
            "--systems", "grpc,rpcx", "--threads", "10", "--requests", "20,30", "--runs", "2",
            "--out", "my results");
    List<CellSummary> cells =
        List.of(
            CellSummary.of(
                List.of(
                    run(0, 1000, RunResult.Status.DROPPED, ""),
                    run(1, 100, RunResult.Status.OK, ""))),
            CellSummary.of(
                List.of(RunResult.notStarted("rpcx", 10, 20, "system not available: no"))));
    Map<String, String> descriptions = new LinkedHashMap<>();
    descriptions.put("grpc", "gRPC");
    descriptions.put("rpcx", "system not available: no");
    assertEquals(
        """
        # Stress test: grpc, rpcx

        ```sh
        java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.stress.StressTool \
        --systems grpc,rpcx --threads 10 --requests 20,30 --runs 2 --out 'my results'
        ```

        Run 2026-11-28T10:00:00Z on Java 17.0.15, 2 cores.

        Grid: threads [10] x requests per thread [20, 30]; 2 runs per cell, the first dropped; \
        cell time limit 600 s; small echo call (16-byte string); TPS = threads x requests / seconds.

        - `grpc`: gRPC
        - `rpcx`: system not available: no

        | threads | requests | grpc TPS | grpc p99 ms | rpcx TPS | rpcx p99 ms |
        |---:|---:|---:|---:|---:|---:|
        | 10 | 20 | 2,000 | 0.00 | **FAILED** | – |
        | 10 | 30 | – | – | – | – |

        Failed cells: 1.

        - rpcx 10 x 20: system not available: no
        """,
        Report.markdown(options, descriptions, cells,
            "Run 2026-11-28T10:00:00Z on Java 17.0.15, 2 cores."));
  }

  private static RunResult run(int index, double millis, RunResult.Status status, String reason) {
    long[] latencies = new long[200];
    java.util.Arrays.fill(latencies, 2000);
    return new RunResult(
        "grpc",
        10,
        20,
        index,
        millis,
        0,
        status,
        reason,
        status == RunResult.Status.FAILED ? new long[0] : latencies);
  }
}
