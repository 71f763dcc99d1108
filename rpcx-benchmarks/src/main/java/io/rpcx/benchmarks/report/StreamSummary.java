package io.rpcx.benchmarks.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.benchmarks.api.StreamSystems;
import io.rpcx.benchmarks.jmh.StreamBenchmark;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns JMH JSON results of {@link StreamBenchmark} into the Markdown tables of docs/BENCHMARKS.md
 * ("Server streams"): messages per second per system, RPCX against the strongest gRPC form of each
 * cell (issue 19's goal: at least 2×) and against the raw Netty floor; bytes allocated per message
 * where the run had {@code -prof gc}; and what a stream's set-up costs ({@code setup01}).
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.report.StreamSummary \
 *     jmh-streams*.json.gz
 * </pre>
 *
 * When a cell appears in several files, the last file wins.
 */
public final class StreamSummary {
  private static final String BENCHMARK = StreamBenchmark.class.getSimpleName() + ".";
  private static final List<String> PAYLOADS = List.of("text16", "text1k");
  private static final double GOAL = 2.0;
  private static final String USAGE =
      "Usage: java -cp benchmarks.jar io.rpcx.benchmarks.report.StreamSummary FILE.json[.gz]...\n"
          + "Prints the Markdown tables of StreamBenchmark results: messages/s, RPCX against the\n"
          + "strongest gRPC form and the Netty floor, bytes per message, set-up cost.";

  /** One result: messages/s (streams/s for setup01), its error, bytes per operation. */
  private record Cell(double score, double error, double bytesPerOp, int forks) {}

  /** By "method|system|payload". */
  private final Map<String, Cell> cells = new LinkedHashMap<>();

  public static void main(String[] args) throws IOException {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      (args.length == 0 ? System.err : System.out).println(USAGE);
      System.exit(args.length == 0 ? 2 : 0);
    }
    StreamSummary summary = new StreamSummary();
    for (String file : args) {
      summary.read(Path.of(file));
    }
    summary.print();
  }

  private void read(Path file) throws IOException {
    JsonNode results = JmhResults.read(file);
    for (JsonNode result : results) {
      String benchmark = result.get("benchmark").asText();
      int at = benchmark.indexOf(BENCHMARK);
      if (at < 0) {
        continue;
      }
      String method = benchmark.substring(at + BENCHMARK.length());
      JsonNode params = result.path("params");
      JsonNode metric = result.get("primaryMetric");
      JsonNode gc = result.path("secondaryMetrics").path("gc.alloc.rate.norm");
      cells.put(
          method + "|" + params.path("system").asText() + "|" + params.path("payload").asText(),
          new Cell(
              metric.get("score").asDouble(),
              metric.path("scoreError").asDouble(Double.NaN),
              gc.isMissingNode() ? Double.NaN : gc.get("score").asDouble(),
              result.path("forks").asInt()));
    }
  }

  private Cell cell(String method, String system, String payload) {
    return cells.get(method + "|" + system + "|" + payload);
  }

  /** The registered systems with a result of {@code method}, in registration order. */
  private List<String> systems(String method) {
    List<String> found = new ArrayList<>();
    for (String system : StreamSystems.names()) {
      for (String payload : PAYLOADS) {
        if (cell(method, system, payload) != null) {
          found.add(system);
          break;
        }
      }
    }
    return found;
  }

  private List<String> systemsOfStreams() {
    List<String> found = new ArrayList<>();
    List<String> one = systems("streams01");
    List<String> many = systems("streams32");
    for (String system : StreamSystems.names()) {
      if (one.contains(system) || many.contains(system)) {
        found.add(system);
      }
    }
    return found;
  }

  private void print() {
    List<String> systems = systemsOfStreams();
    if (!systems.isEmpty()) {
      printRates(systems);
      printAllocation(systems);
    }
    printSetup();
  }

  private void printRates(List<String> systems) {
    System.out.printf(
        "%n#### Server streams, %,d elements per stream (messages/s; higher is better)%n%n",
        StreamBenchmark.MESSAGES);
    System.out.println(
        header("cell", systems, "best gRPC", "rpcx ÷ best gRPC", "rpcx ÷ netty", "≥ 2× gRPC"));
    for (String payload : PAYLOADS) {
      for (String method : List.of("streams01", "streams32")) {
        if (!hasRow(method, payload, systems)) {
          continue;
        }
        StringBuilder row = new StringBuilder("| " + label(method, payload) + " |");
        for (String system : systems) {
          Cell cell = cell(method, system, payload);
          row.append(' ').append(cell == null ? "–" : withError(cell)).append(" |");
        }
        String best = null;
        for (String system : systems) {
          Cell cell = cell(method, system, payload);
          if (system.startsWith("grpc")
              && cell != null
              && (best == null || cell.score > cell(method, best, payload).score)) {
            best = system;
          }
        }
        Cell rpcx = cell(method, "rpcx", payload);
        Cell netty = cell(method, "netty", payload);
        Cell grpc = best == null ? null : cell(method, best, payload);
        double vsGrpc = rpcx == null || grpc == null ? Double.NaN : rpcx.score / grpc.score;
        double vsNetty = rpcx == null || netty == null ? Double.NaN : rpcx.score / netty.score;
        row.append(' ').append(best == null ? "–" : "`" + best + "`").append(" |");
        row.append(' ').append(Double.isNaN(vsGrpc) ? "–" : ratio(vsGrpc)).append(" |");
        row.append(' ').append(Double.isNaN(vsNetty) ? "–" : ratio(vsNetty)).append(" |");
        row.append(' ')
            .append(Double.isNaN(vsGrpc) ? "–" : vsGrpc >= GOAL ? "yes" : "**no**")
            .append(" |");
        System.out.println(row);
      }
    }
    int forks = 0;
    for (Cell cell : cells.values()) {
      forks = Math.max(forks, cell.forks);
    }
    System.out.printf(
        "%nMean ± JMH's 99.9%% error over all iterations of all forks"
            + " (%d fork%s per cell at most).%n",
        forks, forks == 1 ? "" : "s");
  }

  private void printAllocation(List<String> systems) {
    boolean any = false;
    for (Cell cell : cells.values()) {
      any |= !Double.isNaN(cell.bytesPerOp);
    }
    if (!any) {
      return;
    }
    System.out.printf(
        "%n#### Server streams, allocated per message (bytes, client and server together;"
            + " gc.alloc.rate.norm of -prof gc)%n%n");
    System.out.println(header("cell", systems));
    for (String payload : PAYLOADS) {
      for (String method : List.of("streams01", "streams32")) {
        if (!hasRow(method, payload, systems)) {
          continue;
        }
        StringBuilder row = new StringBuilder("| " + label(method, payload) + " |");
        for (String system : systems) {
          Cell cell = cell(method, system, payload);
          boolean measured = cell != null && !Double.isNaN(cell.bytesPerOp);
          row.append(' ').append(measured ? number(cell.bytesPerOp) : "–").append(" |");
        }
        System.out.println(row);
      }
    }
  }

  /** What a one-element stream costs, and its share of a stream of the benchmark's length. */
  private void printSetup() {
    List<String> systems = systems("setup01");
    if (systems.isEmpty()) {
      return;
    }
    System.out.printf(
        "%n#### Server streams, set-up: a 1-element stream, one at a time (µs per stream; share of"
            + " a %,d-element stream at the 1-stream rate)%n%n",
        StreamBenchmark.MESSAGES);
    System.out.println(header("payload", systems));
    for (String payload : PAYLOADS) {
      StringBuilder row = new StringBuilder("| " + payload + " |");
      for (String system : systems) {
        Cell setup = cell("setup01", system, payload);
        Cell stream = cell("streams01", system, payload);
        if (setup == null) {
          row.append(" – |");
          continue;
        }
        double micros = 1e6 / setup.score;
        row.append(' ').append(String.format(Locale.ROOT, "%.0f µs", micros));
        if (stream != null) {
          double streamMicros = 1e6 * StreamBenchmark.MESSAGES / stream.score;
          row.append(String.format(Locale.ROOT, " (%.1f%%)", 100 * micros / streamMicros));
        }
        row.append(" |");
      }
      System.out.println(row);
    }
  }

  private boolean hasRow(String method, String payload, List<String> systems) {
    for (String system : systems) {
      if (cell(method, system, payload) != null) {
        return true;
      }
    }
    return false;
  }

  private static String label(String method, String payload) {
    return (payload.equals("text16") ? "16 B" : "1 KiB")
        + (method.equals("streams01") ? ", 1 stream" : ", 32 streams");
  }

  private static String header(String first, List<String> columns, String... more) {
    StringBuilder header = new StringBuilder("| " + first + " |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String column : columns) {
      header.append(" `").append(column).append("` |");
      rule.append("---:|");
    }
    for (String column : more) {
      header.append(' ').append(column).append(" |");
      rule.append("---:|");
    }
    return header + "\n" + rule;
  }

  private static String withError(Cell cell) {
    return Double.isNaN(cell.error)
        ? number(cell.score)
        : number(cell.score) + " ± " + number(cell.error);
  }

  private static String number(double value) {
    return value >= 100
        ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String ratio(double value) {
    return String.format(Locale.ROOT, "%.2f×", value);
  }
}
