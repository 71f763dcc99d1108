package io.rpcx.benchmarks.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns JMH JSON results ({@code -rf json}) of this module into the Markdown tables of
 * docs/BENCHMARKS.md, and checks the speed targets of the benchmark issue against them:
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.report.JmhSummary results/*.json
 * </pre>
 *
 * Files may be gzipped ({@code .json.gz}).
 *
 * When a cell appears in several files, the last file wins (so a focused run with more forks,
 * given last, overrides the matrix).
 */
public final class JmhSummary {
  private static final String USAGE =
      "Usage: java -cp benchmarks.jar io.rpcx.benchmarks.report.JmhSummary FILE.json[.gz]...\n"
          + "Prints the Markdown tables of JMH results (throughput, latency, codec, cost per call,\n"
          + "warm-up) and the speed targets checked against them; a cell in several files is\n"
          + "taken from the last.";
  /** Table columns, in this order; a system with no result in the files has no column. */
  private static final List<String> SYSTEMS =
      List.of(
          "rpcx",
          "rpcx-direct",
          "rpcx-nonblocking",
          "rpcx-virtual",
          "rpcx-meters",
          "rpcx-metrics",
          "rpcx-tracing-unsampled",
          "netty",
          "netty-flush-per-call",
          "grpc",
          "grpc-native",
          "dubbo",
          "feign");
  private static final List<String> FRAMEWORKS = List.of("grpc", "dubbo", "feign");
  private static final List<String> WORKLOADS =
      List.of("echo16", "order", "orders", "string1k", "string100k", "string1m", "bytes1m", "crud");

  /** One result: score (ops/s, µs or ns), its error, p50 and p99 for sampled latency. */
  private static final class Cell {
    double score;
    double error;
    double p50;
    double p99;
    int forks;
  }

  /** What a call costs, from {@code -prof perfnorm} and {@code -prof gc}: both sides of the call. */
  private static final class Cost {
    /** CPU time per call in µs, of the whole JVM ({@code ProcessCpuProfiler}). */
    double cpuMicros = Double.NaN;
    /** Bytes allocated per call ({@code gc.alloc.rate.norm}). */
    double bytes = Double.NaN;
  }

  /** A run without warm-up iterations: throughput by second since the fork started. */
  private static final class WarmUp {
    final List<double[]> forks = new ArrayList<>();
  }

  /** By "Class.method|system|workload" or "Class.method|codec|shape". */
  private final Map<String, Cell> cells = new LinkedHashMap<>();
  /** Every cell of every file, by "file|Class.method|system|workload": for ratios within one run. */
  private final Map<String, Cell> cellsByFile = new LinkedHashMap<>();
  /** The file each cell of {@link #cells} came from (the last one that had it). */
  private final Map<String, String> fileOf = new LinkedHashMap<>();
  /** By "system|workload|threads"; from runs with the perfnorm and gc profilers. */
  private final Map<String, Cost> costs = new LinkedHashMap<>();
  /** By file name (without {@code jmh-} and the extension), from files named {@code jmh-warmup-*}. */
  private final Map<String, WarmUp> warmUps = new LinkedHashMap<>();

  public static void main(String[] args) throws IOException {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      (args.length == 0 ? System.err : System.out).println(USAGE);
      System.exit(args.length == 0 ? 2 : 0);
    }
    JmhSummary summary = new JmhSummary();
    for (String file : args) {
      summary.read(Path.of(file));
    }
    summary.print();
  }

  private void read(Path file) throws IOException {
    JsonNode results = JmhResults.read(file);
    String base =
        file.getFileName().toString().replaceFirst("^jmh-", "").replaceFirst("\\.json(\\.gz)?$", "");
    if (base.startsWith("warmup-")) {
      readWarmUp(base, results);
      return; // iterations without warm-up are not steady-state scores
    }
    for (JsonNode result : results) {
      String benchmark = result.get("benchmark").asText();
      String[] parts = benchmark.split("\\.");
      String name = parts[parts.length - 2] + "." + parts[parts.length - 1];
      JsonNode params = result.path("params");
      String first = params.has("system") ? params.get("system").asText() : params.path("codec").asText();
      String second =
          params.has("workload") ? params.get("workload").asText() : params.path("shape").asText();
      JsonNode metric = result.get("primaryMetric");
      Cell cell = new Cell();
      cell.score = metric.get("score").asDouble();
      cell.error = metric.path("scoreError").asDouble(Double.NaN);
      JsonNode percentiles = metric.path("scorePercentiles");
      cell.p50 = percentiles.path("50.0").asDouble(Double.NaN);
      cell.p99 = percentiles.path("99.0").asDouble(Double.NaN);
      cell.forks = result.path("forks").asInt();
      JsonNode secondary = result.path("secondaryMetrics");
      if (secondary.has("cpu.time.norm") || secondary.has("gc.alloc.rate.norm")) {
        // A later file replaces only what it measured: a CPU-only run keeps an earlier run's bytes.
        Cost cost = costs.computeIfAbsent(first + "|" + second + "|" + parts[parts.length - 1], k -> new Cost());
        double cpu = secondary.path("cpu.time.norm").path("score").asDouble(Double.NaN);
        double bytes = secondary.path("gc.alloc.rate.norm").path("score").asDouble(Double.NaN);
        if (!Double.isNaN(cpu)) {
          cost.cpuMicros = cpu;
        }
        if (!Double.isNaN(bytes)) {
          cost.bytes = bytes;
        }
        if (base.startsWith("costs-") || !onlyCountersRead(secondary)) {
          // Phase costs is 1 short fork per cell, and perf's profilers slow the calls: the
          // throughput of these runs is not reported (it would replace a longer run's).
          continue;
        }
      }
      String key = name + "|" + first + "|" + second;
      cells.put(key, cell);
      cellsByFile.put(base + "|" + key, cell);
      fileOf.put(key, base);
    }
  }

  /**
   * Whether the secondary metrics of a run that has a cost metric are all of profilers that only
   * read counters once per iteration ({@code ProcessCpuProfiler}'s {@code cpu.time.*}, {@code -prof
   * gc}'s {@code gc.*}), which leave the calls per second as they are; a run with {@code -prof
   * perfnorm} beside them is not reported (perfnorm alone has no cost metric here and is read as an
   * ordinary run).
   */
  private static boolean onlyCountersRead(JsonNode secondary) {
    for (Iterator<String> names = secondary.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!name.startsWith("cpu.time") && !name.startsWith("gc.")) {
        return false;
      }
    }
    return true;
  }

  private void readWarmUp(String base, JsonNode results) {
    WarmUp warmUp = warmUps.computeIfAbsent(base, key -> new WarmUp());
    for (JsonNode result : results) {
      for (JsonNode fork : result.path("primaryMetric").path("rawData")) {
        double[] iterations = new double[fork.size()];
        for (int i = 0; i < iterations.length; i++) {
          iterations[i] = fork.get(i).asDouble();
        }
        warmUp.forks.add(iterations);
      }
    }
  }

  private Cell cell(String benchmark, String system, String workload) {
    return cells.get(benchmark + "|" + system + "|" + workload);
  }

  private void print() {
    for (String threads : List.of("threads001", "threads032", "threads128")) {
      printThroughput(threads);
    }
    for (String threads : List.of("threads001", "threads032", "threads128")) {
      printLatency(threads);
    }
    printCodec();
    printCosts();
    printWarmUps();
    printTargets();
  }

  private void printCosts() {
    if (costs.isEmpty()) {
      return;
    }
    Set<String> rows = new LinkedHashSet<>();
    List<String> systems = new ArrayList<>();
    for (String system : SYSTEMS) {
      for (String key : costs.keySet()) {
        String[] parts = key.split("\\|");
        if (parts[0].equals(system)) {
          if (!systems.contains(system)) {
            systems.add(system);
          }
        }
      }
    }
    for (String workload : WORKLOADS) {
      for (String key : costs.keySet()) {
        String[] parts = key.split("\\|");
        if (parts[1].equals(workload)) {
          rows.add(workload + "|" + parts[2]);
        }
      }
    }
    System.out.printf(
        "%n#### Cost per call, client and server together (CPU µs of the JVM per call /"
            + " bytes allocated per call; lower is better)%n%n");
    System.out.println(header("workload", systems, "rpcx ÷ grpc CPU", "rpcx ÷ grpc bytes"));
    for (String row : rows) {
      String[] parts = row.split("\\|");
      StringBuilder line = new StringBuilder("| " + parts[0] + ", " + callers(parts[1]) + " |");
      for (String system : systems) {
        Cost cost = costs.get(system + "|" + row);
        line.append(' ')
            .append(cost == null ? "–" : micros1(cost.cpuMicros) + " / " + bytes(cost.bytes))
            .append(" |");
      }
      Cost rpcx = costs.get("rpcx|" + row);
      Cost grpc = costs.get("grpc|" + row);
      boolean both = rpcx != null && grpc != null;
      line.append(' ').append(both ? ratioOrDash(rpcx.cpuMicros / grpc.cpuMicros) : "–").append(" |");
      line.append(' ').append(both ? ratioOrDash(rpcx.bytes / grpc.bytes) : "–").append(" |");
      System.out.println(line);
    }
  }

  /**
   * Each warm-up run: the mean throughput of its first 10 one-second iterations against its last
   * 10 (the steady state), over all forks.
   */
  private void printWarmUps() {
    if (warmUps.isEmpty()) {
      return;
    }
    System.out.printf("%n#### Warm-up (calls/s by second of a fresh JVM; all forks)%n%n");
    System.out.println("| run | forks | seconds 1–10 | last 10 seconds | first ÷ last |");
    System.out.println("|---|---:|---:|---:|---:|");
    for (Map.Entry<String, WarmUp> entry : warmUps.entrySet()) {
      double first = 0;
      double last = 0;
      int firstCount = 0;
      int lastCount = 0;
      for (double[] fork : entry.getValue().forks) {
        for (int i = 0; i < fork.length; i++) {
          if (i < 10) {
            first += fork[i];
            firstCount++;
          }
          if (i >= fork.length - 10 && i >= 10) {
            last += fork[i];
            lastCount++;
          }
        }
      }
      if (firstCount == 0 || lastCount == 0) {
        continue;
      }
      first /= firstCount;
      last /= lastCount;
      System.out.printf(
          "| %s | %d | %s | %s | %s |%n",
          entry.getKey().substring("warmup-".length()),
          entry.getValue().forks.size(),
          number(first),
          number(last),
          ratio(first / last));
    }
  }

  /** The systems that have a result for {@code benchmark}, in {@link #SYSTEMS} order. */
  private List<String> systemsOf(String benchmark) {
    List<String> found = new ArrayList<>();
    for (String system : SYSTEMS) {
      for (String workload : WORKLOADS) {
        if (cell(benchmark, system, workload) != null) {
          found.add(system);
          break;
        }
      }
    }
    return found;
  }

  private static String header(String first, List<String> columns, String... more) {
    StringBuilder header = new StringBuilder("| " + first + " |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String column : columns) {
      header.append(' ').append(column).append(" |");
      rule.append("---:|");
    }
    for (String column : more) {
      header.append(' ').append(column).append(" |");
      rule.append("---:|");
    }
    return header + "\n" + rule;
  }

  private Set<String> workloadsOf(String benchmark) {
    Set<String> found = new LinkedHashSet<>();
    for (String workload : WORKLOADS) {
      for (String system : SYSTEMS) {
        if (cell(benchmark, system, workload) != null) {
          found.add(workload);
        }
      }
    }
    return found;
  }

  private void printThroughput(String threads) {
    String benchmark = "ThroughputBenchmark." + threads;
    Set<String> workloads = workloadsOf(benchmark);
    if (workloads.isEmpty()) {
      return;
    }
    System.out.printf("%n#### Throughput, %s (calls/s; higher is better)%n%n", callers(threads));
    List<String> systems = systemsOf(benchmark);
    System.out.println(header("workload", systems, "rpcx ÷ best framework", "rpcx ÷ netty"));
    for (String workload : workloads) {
      StringBuilder row = new StringBuilder("| " + workload + " |");
      for (String system : systems) {
        Cell cell = cell(benchmark, system, workload);
        row.append(' ').append(cell == null ? "–" : number(cell.score)).append(" |");
      }
      Cell rpcx = cell(benchmark, "rpcx", workload);
      double best = 0;
      for (String framework : FRAMEWORKS) {
        Cell cell = cell(benchmark, framework, workload);
        if (cell != null) {
          best = Math.max(best, cell.score);
        }
      }
      Cell netty = cell(benchmark, "netty", workload);
      row.append(' ').append(rpcx == null || best == 0 ? "–" : ratio(rpcx.score / best)).append(" |");
      row.append(' ').append(rpcx == null || netty == null ? "–" : ratio(rpcx.score / netty.score))
          .append(" |");
      System.out.println(row);
    }
  }

  private void printLatency(String threads) {
    String benchmark = "LatencyBenchmark." + threads;
    Set<String> workloads = workloadsOf(benchmark);
    if (workloads.isEmpty()) {
      return;
    }
    System.out.printf("%n#### Latency, %s (p50 / p99 in µs; lower is better)%n%n", callers(threads));
    List<String> systems = systemsOf(benchmark);
    System.out.println(header("workload", systems));
    for (String workload : workloads) {
      StringBuilder row = new StringBuilder("| " + workload + " |");
      for (String system : systems) {
        Cell cell = cell(benchmark, system, workload);
        row.append(' ')
            .append(cell == null ? "–" : micros(cell.p50) + " / " + micros(cell.p99))
            .append(" |");
      }
      System.out.println(row);
    }
  }

  private void printCodec() {
    Set<String> shapes = new TreeSet<>();
    for (String key : cells.keySet()) {
      if (key.startsWith("CodecBenchmark.")) {
        shapes.add(key.split("\\|")[2]);
      }
    }
    if (shapes.isEmpty()) {
      return;
    }
    System.out.printf("%n#### Codec, time per operation (ns; lower is better)%n%n");
    System.out.println("| shape | rpcx encode | protobuf encode | ratio | rpcx decode | protobuf decode | ratio |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|");
    for (String shape : List.of("order", "orders", "info", "infoPhoto", "infoRecord")) {
      if (!shapes.contains(shape)) {
        continue;
      }
      StringBuilder row = new StringBuilder("| " + shape + " |");
      for (String operation : List.of("encode", "decode")) {
        Cell rpcx = cell("CodecBenchmark." + operation, "rpcx", shape);
        Cell protobuf = cell("CodecBenchmark." + operation, "protobuf", shape);
        row.append(' ').append(rpcx == null ? "–" : number(rpcx.score)).append(" |");
        row.append(' ').append(protobuf == null ? "–" : number(protobuf.score)).append(" |");
        row.append(' ')
            .append(rpcx == null || protobuf == null ? "–" : ratio(rpcx.score / protobuf.score))
            .append(" |");
      }
      System.out.println(row);
    }
  }

  private void printTargets() {
    List<String[]> rows = new ArrayList<>();
    String t32 = "ThroughputBenchmark.threads032";
    String t1 = "ThroughputBenchmark.threads001";
    String l1 = "LatencyBenchmark.threads001";
    String t128 = "ThroughputBenchmark.threads128";
    // Issue 32's targets (item 1: the default server; 2: methods that never block; 4: Observation
    // with the starter's wiring, against plain rpcx; 5: values; 6: warm-up is its own table).
    addRatio(rows, "echo16, 32 threads: rpcx ÷ netty", t32, "echo16", "rpcx", "netty", 0.9, true, false);
    addRatio(rows, "echo16, 128 threads: rpcx ÷ netty", t128, "echo16", "rpcx", "netty", 0.85, true, false);
    addRatio(rows, "echo16, 1 thread, p50: rpcx ÷ netty", l1, "echo16", "rpcx", "netty", 1.0, false, true);
    addCpuRatio(rows, "echo16, 32 caller threads: CPU per call, rpcx ÷ netty", "rpcx", "netty", "echo16|threads032", 1.2);
    addRatio(rows, "echo16, 32 threads: rpcx-nonblocking ÷ netty", t32, "echo16", "rpcx-nonblocking", "netty", 0.95, true, false);
    // What observing costs: against rpcx measured in the same run as the observed system.
    addSameRunRatio(rows, "echo16, 32 threads: rpcx-metrics (Observation, metrics only) ÷ rpcx", t32, "echo16", "rpcx-metrics", 0.9);
    addSameRunRatio(rows, "echo16, 32 threads: rpcx-tracing-unsampled ÷ rpcx", t32, "echo16", "rpcx-tracing-unsampled", 0.85);
    addSameRunRatio(rows, "echo16, 32 threads: rpcx-meters ÷ rpcx", t32, "echo16", "rpcx-meters", Double.NaN);
    addRatio(rows, "orders, 32 threads: rpcx ÷ grpc-native", t32, "orders", "rpcx", "grpc-native", 2.5, true, false);
    addRatio(rows, "string1m, 1 thread: rpcx ÷ netty", t1, "string1m", "rpcx", "netty", 0.8, true, false);
    Cost orders = costs.get("rpcx|orders|threads032");
    Cost grpcOrders = costs.get("grpc|orders|threads032");
    if (orders != null && grpcOrders != null) {
      addCost(rows, "orders, 32 caller threads: bytes per call, rpcx ÷ grpc", orders.bytes, grpcOrders.bytes, " B", 0.6);
    }
    // Beside the frameworks (no target: what the README's headline quotes).
    for (String other : List.of("grpc", "grpc-native", "dubbo", "feign")) {
      for (String workload : List.of("echo16", "order", "orders")) {
        addRatio(rows, workload + ", 32 threads: rpcx ÷ " + other, t32, workload, "rpcx", other, Double.NaN, true, false);
      }
    }
    addRatio(rows, "echo16, 1 thread, p50: rpcx ÷ grpc", l1, "echo16", "rpcx", "grpc", Double.NaN, false, true);
    for (String other : List.of("grpc", "netty")) {
      addCpuRatio(rows, "echo16, 32 caller threads: CPU per call, rpcx ÷ " + other, "rpcx", other, "echo16|threads032", Double.NaN);
    }
    if (rows.isEmpty()) {
      return;
    }
    System.out.printf("%n#### Targets (issue 32) and ratios%n%n");
    System.out.println("| target | rpcx | other | ratio | wanted | met |");
    System.out.println("|---|---:|---:|---:|---:|---|");
    Set<String> seen = new LinkedHashSet<>();
    for (String[] row : rows) {
      if (seen.add(row[0])) {
        System.out.println("| " + String.join(" | ", row) + " |");
      }
    }
  }

  /**
   * The ratio of {@code system} to rpcx in the file {@code system}'s cell came from (rpcx of
   * another run if that file has none); the label says which.
   */
  private void addSameRunRatio(
      List<String[]> rows, String label, String benchmark, String workload, String system, double wanted) {
    String key = benchmark + "|" + system + "|" + workload;
    Cell mine = cells.get(key);
    if (mine == null) {
      return;
    }
    String file = fileOf.get(key);
    Cell rpcx = cellsByFile.get(file + "|" + benchmark + "|rpcx|" + workload);
    String from = " (rpcx of the same run)";
    if (rpcx == null) {
      rpcx = cell(benchmark, "rpcx", workload);
      from = " (rpcx of another run)";
    }
    if (rpcx == null) {
      return;
    }
    rows.add(row(label + from, number(mine.score) + "/s", number(rpcx.score) + "/s",
        mine.score / rpcx.score, wanted, true));
  }

  private void addCpuRatio(
      List<String[]> rows, String label, String system, String other, String cell, double wanted) {
    Cost mine = costs.get(system + "|" + cell);
    Cost theirs = costs.get(other + "|" + cell);
    if (mine != null && theirs != null && !Double.isNaN(mine.cpuMicros) && !Double.isNaN(theirs.cpuMicros)) {
      addCost(rows, label, mine.cpuMicros, theirs.cpuMicros, " µs", wanted);
    }
  }

  private static void addCost(
      List<String[]> rows, String label, double rpcx, double other, String unit, double wanted) {
    rows.add(row(label,
        unit.equals(" B") ? bytes(rpcx) : micros1(rpcx) + unit,
        unit.equals(" B") ? bytes(other) : micros1(other) + unit,
        rpcx / other, wanted, false));
  }

  /** A ratio of two systems' cells; {@code wanted} NaN: no target, the ratio only. */
  private void addRatio(
      List<String[]> rows,
      String label,
      String benchmark,
      String workload,
      String system,
      String other,
      double wanted,
      boolean atLeast,
      boolean p50) {
    Cell mine = cell(benchmark, system, workload);
    Cell them = cell(benchmark, other, workload);
    if (mine == null || them == null) {
      return;
    }
    double a = p50 ? mine.p50 : mine.score;
    double b = p50 ? them.p50 : them.score;
    String unit = p50 ? " µs" : "/s";
    rows.add(row(label, (p50 ? micros(a) : number(a)) + unit, (p50 ? micros(b) : number(b)) + unit,
        a / b, wanted, atLeast));
  }

  /**
   * A row of the targets table: the label, both figures, their ratio and, unless {@code wanted}
   * is NaN (a ratio with no target), the target and whether it is met.
   */
  private static String[] row(
      String label, String mine, String theirs, double ratio, double wanted, boolean atLeast) {
    boolean target = !Double.isNaN(wanted);
    boolean met = atLeast ? ratio >= wanted : ratio <= wanted;
    return new String[] {
      label,
      mine,
      theirs,
      ratio(ratio),
      target ? (atLeast ? "≥ " : "≤ ") + ratio(wanted) : "",
      target ? (met ? "yes" : "**no**") : ""
    };
  }

  /** "1 caller thread", "32 caller threads" from a method name such as {@code threads032}. */
  private static String callers(String threads) {
    int count = Integer.parseInt(threads.substring(7));
    return count + (count == 1 ? " caller thread" : " caller threads");
  }

  private static String number(double value) {
    return value >= 100
        ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String micros(double value) {
    return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.0f", value);
  }

  private static String micros1(double value) {
    return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String bytes(double value) {
    return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%,.0f B", value);
  }

  private static String ratioOrDash(double value) {
    return Double.isNaN(value) ? "–" : ratio(value);
  }

  private static String ratio(double value) {
    return String.format(Locale.ROOT, "%.2f×", value);
  }
}
