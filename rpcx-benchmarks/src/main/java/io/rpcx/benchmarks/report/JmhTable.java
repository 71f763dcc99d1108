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

/**
 * Every result of JMH result files ({@code -rf json}, plain or gzipped) as Markdown: one table per
 * file, one row per benchmark and parameter combination, with the score, JMH's 99.9% error, the
 * percentiles of sampled latency and the secondary metrics per operation ({@code -prof gc}'s
 * {@code gc.alloc.rate.norm}, {@code ProcessCpuProfiler}'s {@code cpu.time.norm}, the counters of
 * {@code -prof perfnorm}). What every row of a file shares (JMH and JDK, JVM options, threads,
 * forks, iterations, mode) is written once above its table; what differs gets a column.
 *
 * <p>It is what a run keeps in git when its JSON stays in the ignored results folder: every figure
 * of the JSON but the per-iteration data and the latency histograms. The focused tables are
 * {@link JmhSummary}'s and {@link StreamSummary}'s.
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.report.JmhTable \
 *     rpcx-benchmarks/results/2026-11-28-report-1a2b3c4/jmh-*.json.gz
 * </pre>
 */
public final class JmhTable {
  private static final String USAGE =
      "Usage: java -cp benchmarks.jar io.rpcx.benchmarks.report.JmhTable FILE.json[.gz]...\n"
          + "Prints every result of each JMH result file as a Markdown table.";
  private static final List<String> PERCENTILES = List.of("50.0", "90.0", "99.0", "99.9");

  private JmhTable() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      (args.length == 0 ? System.err : System.out).println(USAGE);
      System.exit(args.length == 0 ? 2 : 0);
    }
    for (String file : args) {
      Path path = Path.of(file);
      System.out.print(table(path.getFileName().toString(), JmhResults.read(path)));
    }
  }

  /** The Markdown of one file's results: a heading, the shared settings, the table. */
  static String table(String title, JsonNode results) {
    List<Map<String, String>> settings = new ArrayList<>();
    Set<String> params = new LinkedHashSet<>();
    Map<String, String> secondary = new LinkedHashMap<>(); // metric name -> unit
    boolean sampled = false;
    for (JsonNode result : results) {
      settings.add(settings(result));
      result.path("params").fieldNames().forEachRemaining(params::add);
      for (Iterator<Map.Entry<String, JsonNode>> it =
              result.path("secondaryMetrics").properties().iterator();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> metric = it.next();
        if (perOperation(metric.getKey()) && metric.getValue().path("score").isNumber()) {
          secondary.putIfAbsent(metric.getKey(), metric.getValue().path("scoreUnit").asText());
        }
      }
      sampled |= result.path("mode").asText().equals("sample");
    }
    StringBuilder md = new StringBuilder("### ").append(title).append("\n\n");
    if (results.isEmpty()) {
      return md.append("No results.\n\n").toString();
    }
    List<String> shared = new ArrayList<>();
    List<String> differing = new ArrayList<>();
    for (Map.Entry<String, String> setting : settings.get(0).entrySet()) {
      String name = setting.getKey();
      boolean same = settings.stream().allMatch(s -> setting.getValue().equals(s.get(name)));
      if (same) {
        shared.add(setting.getKey() + " " + setting.getValue());
      } else {
        differing.add(setting.getKey());
      }
    }
    md.append(String.join("; ", shared)).append(".\n\n");

    List<String> header = new ArrayList<>();
    header.add("benchmark");
    header.addAll(params);
    header.addAll(differing);
    header.add("score");
    header.add("± 99.9%");
    header.add("unit");
    if (sampled) {
      for (String p : PERCENTILES) {
        header.add("p" + p.replaceFirst("\\.0$", ""));
      }
    }
    secondary.forEach((name, unit) -> header.add(name + " (" + unit + ")"));
    row(md, header);
    List<String> rule = new ArrayList<>();
    int textColumns = 1 + params.size() + differing.size();
    for (int i = 0; i < header.size(); i++) {
      // Names left, numbers right.
      rule.add(i < textColumns || header.get(i).equals("unit") ? "---" : "---:");
    }
    row(md, rule);

    int index = 0;
    for (JsonNode result : results) {
      List<String> cells = new ArrayList<>();
      String[] parts = result.path("benchmark").asText().split("\\.");
      cells.add(
          parts.length < 2 ? parts[0] : parts[parts.length - 2] + "." + parts[parts.length - 1]);
      for (String param : params) {
        cells.add(result.path("params").path(param).asText(""));
      }
      for (String setting : differing) {
        cells.add(settings.get(index).get(setting));
      }
      JsonNode metric = result.path("primaryMetric");
      cells.add(number(metric.path("score").asDouble(Double.NaN)));
      cells.add(number(metric.path("scoreError").asDouble(Double.NaN)));
      cells.add(metric.path("scoreUnit").asText());
      if (sampled) {
        boolean sample = result.path("mode").asText().equals("sample");
        for (String p : PERCENTILES) {
          cells.add(
              sample ? number(metric.path("scorePercentiles").path(p).asDouble(Double.NaN)) : "");
        }
      }
      for (String name : secondary.keySet()) {
        cells.add(
            number(result.path("secondaryMetrics").path(name).path("score").asDouble(Double.NaN)));
      }
      row(md, cells);
      index++;
    }
    return md.append('\n').toString();
  }

  /** A run's settings by label, in the order they are written. */
  private static Map<String, String> settings(JsonNode result) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("JMH", result.path("jmhVersion").asText());
    settings.put(
        "JDK",
        result.path("jdkVersion").asText() + " (" + result.path("vmName").asText() + ")");
    List<String> jvmArgs = new ArrayList<>();
    result.path("jvmArgs").forEach(arg -> jvmArgs.add(arg.asText()));
    settings.put("JVM options", jvmArgs.isEmpty() ? "none" : "`" + String.join(" ", jvmArgs) + "`");
    settings.put("mode", result.path("mode").asText());
    settings.put("threads", result.path("threads").asText());
    settings.put("forks", result.path("forks").asText());
    settings.put("warm-up", iterations(result, "warmupIterations", "warmupTime"));
    settings.put("measured", iterations(result, "measurementIterations", "measurementTime"));
    return settings;
  }

  private static String iterations(JsonNode result, String count, String time) {
    int n = result.path(count).asInt();
    return n == 0 ? "none" : n + " × " + result.path(time).asText();
  }

  /**
   * A secondary metric normalised per operation: {@code *.norm} (gc, CPU time) or a perfnorm
   * counter (a bare event name such as {@code context-switches}); not rates, counts or the
   * percentiles JMH repeats as {@code p0.50}.
   */
  private static boolean perOperation(String name) {
    return name.endsWith(".norm") || !name.contains(".");
  }

  private static void row(StringBuilder md, List<String> cells) {
    md.append('|');
    for (String cell : cells) {
      md.append(' ').append(cell.replace("|", "\\|")).append(" |");
    }
    md.append('\n');
  }

  /** Four significant digits at most, thousands grouped; empty for NaN. */
  static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "";
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (magnitude >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    if (magnitude >= 1) {
      return String.format(Locale.ROOT, "%.2f", value);
    }
    return value == 0 ? "0" : String.format(Locale.ROOT, "%.3g", value);
  }
}
