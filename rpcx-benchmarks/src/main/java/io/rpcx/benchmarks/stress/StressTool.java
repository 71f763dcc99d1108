package io.rpcx.benchmarks.stress;

import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Deployment;
import io.rpcx.benchmarks.api.Systems;
import io.rpcx.benchmarks.api.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stress experiment of the RPCX paper (section "Experiment"), on this machine: for each system,
 * every cell of a grid of client threads x requests per thread is run several times with the small
 * echo call, the first run of each cell is dropped, and each cell's mean time and TPS (requests /
 * seconds) are reported. Server and client of a system run in this JVM over loopback, started once
 * per system (and restarted after a cell that had to be abandoned).
 *
 * <p>A cell that has errors or exceeds its time limit is recorded as FAILED with the reason, in the
 * CSV files, the console and the report. Output, in {@code --out} (default: a new folder under
 * rpcx-benchmarks/results, which git ignores): {@code stress-runs.csv} (every run), {@code
 * stress-cells.csv} (per cell), {@code report.html} (tables and inline SVG charts), {@code
 * charts/*.png}, and {@code summary.md} (the command, the machine and every cell's TPS and p99: the
 * file to keep in docs/benchmarks).
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.stress.StressTool --quick
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.stress.StressTool \
 *     --systems grpc,feign --threads 10:990:100 --requests 10:900:200 --runs 10 --out stress-full
 * </pre>
 */
public final class StressTool {
  private final StressOptions options;
  private final PrintStream out;

  StressTool(StressOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /**
   * Runs the experiment and writes its results; exits 0 even if cells failed (they are in the
   * report).
   */
  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.println(StressOptions.USAGE);
      return;
    }
    StressOptions options;
    try {
      options = StressOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    new StressTool(options, System.out).run();
    // Library threads (Dubbo's, abandoned calls) must not keep the JVM alive.
    System.exit(0);
  }

  /** Runs every system's grid, then writes CSV, charts and HTML; returns the cell summaries. */
  List<CellSummary> run() throws IOException, InterruptedException {
    Files.createDirectories(options.out);
    int totalCells = options.systems.size() * options.cellsPerSystem();
    double callsPerSystem = 0;
    for (int t : options.threads) {
      for (int r : options.requests) {
        callsPerSystem += (double) t * r * options.runs;
      }
    }
    long started = System.nanoTime();
    Progress progress = new Progress(totalCells, callsPerSystem * options.systems.size(), started);
    out.printf(
        Locale.ROOT,
        "Stress test: systems %s, threads %s, requests %s, %d runs per cell (first dropped),"
            + " cell limit %d s, %d cells, output %s%n",
        options.systems,
        options.threads,
        options.requests,
        options.runs,
        options.cellTimeout.getSeconds(),
        totalCells,
        options.out.toAbsolutePath());

    Map<String, String> descriptions = new LinkedHashMap<>();
    List<RunResult> runs = new ArrayList<>();
    List<CellSummary> cells = new ArrayList<>();
    StressRunner runner = new StressRunner(out::println);
    for (String name : options.systems) {
      SystemUnderTest sut = new SystemUnderTest(name);
      descriptions.put(name, sut.description);
      int cell = 0;
      for (int threads : options.threads) {
        for (int requests : options.requests) {
          List<RunResult> cellRuns = sut.runCell(runner, threads, requests);
          runs.addAll(cellRuns);
          CellSummary summary = CellSummary.of(cellRuns);
          cells.add(summary);
          double planned = (double) threads * requests * options.runs;
          if (cellRuns.get(0).started()) {
            progress.cellDone(planned);
          } else {
            progress.cellSkipped(planned);
          }
          String status = progress.status(System.nanoTime());
          out.println(line(name, ++cell, threads, requests, summary) + "   (" + status + ")");
        }
      }
      sut.close();
    }

    write(descriptions, runs, cells);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    out.println(
        "Done in "
            + Progress.format(took)
            + ". Report: "
            + options.out.resolve("report.html").toAbsolutePath()
            + ", summary: "
            + options.out.resolve("summary.md").toAbsolutePath());
    return cells;
  }

  /**
   * One system's server and client while its grid runs: started (and warmed up) once, restarted
   * after an abandoned run, or unavailable with a reason that every remaining cell reports.
   */
  private final class SystemUnderTest {
    private final String name;
    private String description;
    private Deployment deployment;
    private String unavailable;

    SystemUnderTest(String name) {
      this.name = name;
      try {
        BenchmarkSystem system = Systems.get(name);
        description = system.description();
        deployment = start(system);
      } catch (Exception e) {
        unavailable = "system not available: " + e.getMessage();
        if (description == null) {
          description = unavailable;
        }
        out.println("[" + name + "] " + unavailable);
      }
    }

    /** The runs of one cell: all of them, or up to the one abandoned at the cell's deadline. */
    List<RunResult> runCell(StressRunner runner, int threads, int requests)
        throws InterruptedException {
      List<RunResult> runs = new ArrayList<>();
      if (deployment == null) {
        runs.add(RunResult.notStarted(name, threads, requests, unavailable));
        return runs;
      }
      long deadline = System.nanoTime() + options.cellTimeout.toNanos();
      for (int run = 0; run < options.runs; run++) {
        runs.add(runner.run(deployment.client(), name, threads, requests, run, run == 0, deadline));
        if (runner.lastRunAbandoned()) {
          restart();
          break;
        }
      }
      return runs;
    }

    /** Closes the deployment, whose calls may still hang (closing fails them), and starts anew. */
    private void restart() {
      out.println("[" + name + "] restarting server and client after an abandoned run");
      close();
      try {
        deployment = start(Systems.get(name));
      } catch (Exception e) {
        unavailable = "could not restart after an abandoned run: " + e;
        out.println("[" + name + "] " + unavailable);
      }
    }

    void close() {
      if (deployment != null) {
        try {
          deployment.close();
        } catch (RuntimeException e) {
          out.println("[" + name + "] closing failed: " + e);
        }
        deployment = null;
      }
    }
  }

  /** Starts the system and makes the untimed warm-up calls. */
  private Deployment start(BenchmarkSystem system) throws Exception {
    Deployment deployment = Deployment.start(system);
    try {
      Workload.Call call = deployment.client().newCall(Workload.ECHO_16B);
      for (int i = 0; i < options.warmupCalls; i++) {
        call.invoke();
      }
      return deployment;
    } catch (RuntimeException e) {
      deployment.close();
      throw e;
    }
  }

  private String line(String system, int cell, int threads, int requests, CellSummary s) {
    String head =
        String.format(
            Locale.ROOT,
            "[%s] %d/%d threads=%d requests=%d: ",
            system,
            cell,
            options.cellsPerSystem(),
            threads,
            requests);
    if (s.failed) {
      return head + "FAILED: " + s.reason;
    }
    return head
        + String.format(
            Locale.ROOT,
            "%.1f ms/run, %,.0f TPS, p50 %.3f ms, p99 %.3f ms",
            s.meanMillis,
            s.meanTps,
            s.p50Millis,
            s.p99Millis);
  }

  private void write(
      Map<String, String> descriptions, List<RunResult> runs, List<CellSummary> cells)
      throws IOException {
    Csv.writeRuns(options.out.resolve("stress-runs.csv"), runs);
    Csv.writeCells(options.out.resolve("stress-cells.csv"), cells);
    Map<String, List<Report.Figure>> bySystem = Report.bySystem(options.systems, options, cells);
    List<Report.Figure> comparison =
        options.systems.size() > 1
            ? Report.comparisonFigures(options.systems, options.threads, options.requests, cells)
            : List.of();
    Path charts = options.out.resolve("charts");
    for (List<Report.Figure> figures : bySystem.values()) {
      Report.writePngs(charts, figures);
    }
    Report.writePngs(charts, comparison);
    String environment =
        String.format(
            Locale.ROOT,
            "Run %s on Java %s (%s), %d cores, max heap %d MiB.",
            Instant.now(),
            System.getProperty("java.version"),
            System.getProperty("java.vm.name"),
            Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory() >> 20);
    Report.writeText(
        options.out.resolve("report.html"),
        Report.html(options, descriptions, cells, bySystem, comparison, environment));
    Report.writeText(
        options.out.resolve("summary.md"),
        Report.markdown(options, descriptions, cells, environment));
  }
}
