package io.rpcx.benchmarks.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.benchmarks.api.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tables of issue 28's speed comparison, from the JMH results of {@code run-report.sh}'s
 * {@code grpc-endpoint} phase: one grpc-java client (the stubs generated from RPCX's export)
 * calling grpc-java's own server ({@code grpc-exported}) and RPCX's gRPC endpoint ({@code
 * grpc-on-rpcx}), beside RPCX's own protocol ({@code rpcx}) and grpc-java on its hand-written
 * schema ({@code grpc-native}); each server in a JVM of its own. Per cell (workload × caller
 * threads): calls per second, the server JVM's CPU time per call ({@code ServerCpuProfiler}) and
 * the client JVM's ({@code ProcessCpuProfiler}), and the two targets checked: RPCX's
 * endpoint ≥ 1.2× grpc-java's server in calls/s and ≤ 0.8× its server CPU per call.
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.report.GrpcEndpointSummary \
 *     rpcx-benchmarks/results/2026-11-28-grpc-endpoint-1a2b3c4/jmh-grpc-endpoint-*.json.gz
 * </pre>
 *
 * A cell in several files is taken from the last.
 */
public final class GrpcEndpointSummary {
  private static final String USAGE =
      "Usage: java -cp benchmarks.jar io.rpcx.benchmarks.report.GrpcEndpointSummary"
          + " FILE.json[.gz]...\n"
          + "Prints the gRPC endpoint tables (calls/s, server and client CPU per call) of JMH\n"
          + "results and checks issue 28's targets; a cell in several files is taken from the\n"
          + "last.";
  static final String GRPC_JAVA = "grpc-exported";
  static final String ENDPOINT = "grpc-on-rpcx";
  private static final List<String> SYSTEMS = List.of(GRPC_JAVA, ENDPOINT, "rpcx", "grpc-native");
  private static final Map<String, String> HEADINGS =
      Map.of(
          GRPC_JAVA, "grpc-java's server (`grpc-exported`)",
          ENDPOINT, "RPCX's gRPC endpoint (`grpc-on-rpcx`)",
          "rpcx", "RPCX's protocol (`rpcx`)",
          "grpc-native", "grpc-java, hand-written schema (`grpc-native`)");
  private static final List<String> WORKLOADS = List.of(Workload.ids());
  private static final double CALLS_WANTED = 1.2;
  private static final double CPU_WANTED = 0.8;

  /** One system's result in one cell. */
  private static final class Result {
    double score;
    double error;
    int forks;
    double serverCpu = Double.NaN;
    double clientCpu = Double.NaN;
  }

  /**
   * By "workload|threads" (such as "echo16|threads032"), in the order of {@link Workload}, then
   * of the thread count; then by system.
   */
  private final Map<String, Map<String, Result>> cells =
      new TreeMap<>(
          Comparator.comparingInt((String key) -> WORKLOADS.indexOf(key.split("\\|")[0]))
              .thenComparing(key -> key.split("\\|")[1]));

  public static void main(String[] args) throws IOException {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      (args.length == 0 ? System.err : System.out).println(USAGE);
      System.exit(args.length == 0 ? 2 : 0);
    }
    GrpcEndpointSummary summary = new GrpcEndpointSummary();
    for (String file : args) {
      summary.add(JmhResults.read(Path.of(file)));
    }
    System.out.print(summary.markdown());
  }

  /** Adds one file's throughput results of the systems above. */
  void add(JsonNode results) {
    for (JsonNode result : results) {
      String benchmark = result.path("benchmark").asText();
      JsonNode params = result.path("params");
      String system = params.path("system").asText();
      if (!benchmark.contains(".ThroughputBenchmark.threads") || !SYSTEMS.contains(system)) {
        continue;
      }
      Result r = new Result();
      JsonNode primary = result.path("primaryMetric");
      r.score = primary.path("score").asDouble(Double.NaN);
      r.error = primary.path("scoreError").asDouble(Double.NaN);
      r.forks = result.path("forks").asInt();
      JsonNode secondary = result.path("secondaryMetrics");
      r.serverCpu = secondary.path("server.cpu.time.norm").path("score").asDouble(Double.NaN);
      r.clientCpu = secondary.path("cpu.time.norm").path("score").asDouble(Double.NaN);
      String threads = benchmark.substring(benchmark.lastIndexOf('.') + 1);
      String cell = params.path("workload").asText() + "|" + threads;
      cells.computeIfAbsent(cell, k -> new TreeMap<>()).put(system, r);
    }
  }

  /** The three tables, or a line saying there is nothing to show. */
  String markdown() {
    StringBuilder md = new StringBuilder();
    if (cells.isEmpty()) {
      return md.append("No results of ").append(String.join(", ", SYSTEMS)).append(".\n\n")
          .toString();
    }
    List<String> systems = new ArrayList<>();
    for (String system : SYSTEMS) {
      if (cells.values().stream().anyMatch(c -> c.containsKey(system))) {
        systems.add(system);
      }
    }

    md.append("#### Calls per second (higher is better; ± JMH's 99.9% interval)\n\n");
    header(md, systems, "RPCX's endpoint ÷ grpc-java's server");
    for (Map.Entry<String, Map<String, Result>> cell : cells.entrySet()) {
      md.append("| ").append(label(cell.getKey())).append(" |");
      for (String system : systems) {
        Result r = cell.getValue().get(system);
        md.append(' ')
            .append(r == null ? "–" : number(r.score) + " ± " + number(r.error))
            .append(" |");
      }
      md.append(' ').append(ratio(cell.getValue(), r -> r.score)).append(" |\n");
    }

    md.append("\n#### CPU time per call, server JVM / client JVM (µs; lower is better)\n\n");
    header(
        md,
        systems,
        "server: RPCX's endpoint ÷ grpc-java's server",
        "both JVMs: RPCX's endpoint ÷ grpc-java's server");
    for (Map.Entry<String, Map<String, Result>> cell : cells.entrySet()) {
      md.append("| ").append(label(cell.getKey())).append(" |");
      for (String system : systems) {
        Result r = cell.getValue().get(system);
        md.append(' ')
            .append(r == null ? "–" : micros(r.serverCpu) + " / " + micros(r.clientCpu))
            .append(" |");
      }
      md.append(' ').append(ratio(cell.getValue(), r -> r.serverCpu)).append(" |");
      md.append(' ').append(ratio(cell.getValue(), r -> r.serverCpu + r.clientCpu)).append(" |\n");
    }

    md.append("\n#### Targets (issue 28: the same grpc-java client, RPCX's endpoint against")
        .append(" grpc-java's server)\n\n");
    md.append("| cell | calls/s: RPCX ÷ grpc-java (wanted ≥ ")
        .append(ratio(CALLS_WANTED))
        .append(") | met | server CPU per call: RPCX ÷ grpc-java (wanted ≤ ")
        .append(ratio(CPU_WANTED))
        .append(") | met |\n|---|---:|---|---:|---|\n");
    for (Map.Entry<String, Map<String, Result>> cell : cells.entrySet()) {
      Result endpoint = cell.getValue().get(ENDPOINT);
      Result grpcJava = cell.getValue().get(GRPC_JAVA);
      if (endpoint == null || grpcJava == null) {
        continue;
      }
      double calls = endpoint.score / grpcJava.score;
      double cpu = endpoint.serverCpu / grpcJava.serverCpu;
      md.append("| ")
          .append(label(cell.getKey()))
          .append(" | ")
          .append(ratio(calls))
          .append(" | ")
          .append(met(calls >= CALLS_WANTED, calls))
          .append(" | ")
          .append(ratio(cpu))
          .append(" | ")
          .append(met(cpu <= CPU_WANTED, cpu))
          .append(" |\n");
    }
    return md.toString();
  }

  private static void header(StringBuilder md, List<String> systems, String... more) {
    md.append("| cell |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String system : systems) {
      md.append(' ').append(HEADINGS.get(system)).append(" |");
      rule.append("---:|");
    }
    for (String column : more) {
      md.append(' ').append(column).append(" |");
      rule.append("---:|");
    }
    md.append('\n').append(rule).append('\n');
  }

  private interface Figure {
    double of(Result result);
  }

  private static String ratio(Map<String, Result> cell, Figure figure) {
    Result endpoint = cell.get(ENDPOINT);
    Result grpcJava = cell.get(GRPC_JAVA);
    return endpoint == null || grpcJava == null
        ? "–"
        : ratio(figure.of(endpoint) / figure.of(grpcJava));
  }

  private static String met(boolean met, double ratio) {
    return Double.isNaN(ratio) ? "?" : met ? "yes" : "**no**";
  }

  /** "echo16, 32 caller threads" from "echo16|threads032". */
  private static String label(String key) {
    String[] parts = key.split("\\|");
    int threads = Integer.parseInt(parts[1].substring("threads".length()));
    return parts[0] + ", " + threads + (threads == 1 ? " caller thread" : " caller threads");
  }

  private static String number(double value) {
    return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%,.0f", value);
  }

  private static String micros(double value) {
    return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String ratio(double value) {
    return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.2f×", value);
  }
}
