package io.rpcx.benchmarks.stress;

import io.rpcx.benchmarks.report.CommandLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the cell summaries into charts and a self-contained HTML page: per system, a table of the
 * grid and two grouped bar charts (mean time per run and mean TPS, one group per thread count, one
 * bar per request count), then TPS of all systems side by side for each request count. The charts
 * are inline SVG (the page needs no network) and are also written as PNG files under {@code
 * charts/}. Stateless.
 */
final class Report {
  private static final String HEAD =
      """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>RPCX stress test</title>
      <style>
      body { font-family: 'DejaVu Sans', Arial, sans-serif; margin: 2em; color: #222 }
      body { max-width: 1000px }
      table { border-collapse: collapse; margin: 1em 0 }
      td, th { border: 1px solid #ccc; padding: 4px 8px; text-align: right; font-size: 13px }
      th { background: #f4f4f4 }
      .failed { background: #fde8e8; color: #a00 }
      code { background: #f4f4f4; padding: 1px 4px }
      svg { max-width: 100%; height: auto }
      </style>
      </head>
      <body>
      """;

  private Report() {}

  /** A chart and the file name of its PNG. */
  static final class Figure {
    final BarChart chart;
    final String png;

    Figure(BarChart chart, String png) {
      this.chart = chart;
      this.png = png;
    }
  }

  /** The per-system figures: time, then TPS; none if no cell of the system completed. */
  static List<Figure> systemFigures(
      String system, List<Integer> threads, List<Integer> requests, List<CellSummary> cells) {
    if (cells.stream().noneMatch(c -> c.system.equals(system) && !c.failed)) {
      return List.of();
    }
    List<String> categories = labels(threads);
    List<BarChart.Series> time = new ArrayList<>();
    List<BarChart.Series> tps = new ArrayList<>();
    for (int r : requests) {
      double[] millis = new double[threads.size()];
      double[] rate = new double[threads.size()];
      for (int t = 0; t < threads.size(); t++) {
        CellSummary cell = find(cells, system, threads.get(t), r);
        millis[t] = cell == null || cell.failed ? Double.NaN : cell.meanMillis;
        rate[t] = cell == null || cell.failed ? Double.NaN : cell.meanTps;
      }
      time.add(new BarChart.Series(r + " requests", millis));
      tps.add(new BarChart.Series(r + " requests", rate));
    }
    List<Figure> figures = new ArrayList<>();
    figures.add(
        new Figure(
            new BarChart(
                system + ": mean time per run",
                "client threads",
                "milliseconds per run",
                categories,
                time),
            system + "-time.png"));
    figures.add(
        new Figure(
            new BarChart(
                system + ": mean TPS",
                "client threads",
                "transactions per second",
                categories,
                tps),
            system + "-tps.png"));
    return figures;
  }

  /** For each request count, the TPS of every system side by side. */
  static List<Figure> comparisonFigures(
      List<String> systems,
      List<Integer> threads,
      List<Integer> requests,
      List<CellSummary> cells) {
    List<Figure> figures = new ArrayList<>();
    for (int r : requests) {
      List<BarChart.Series> series = new ArrayList<>();
      for (String system : systems) {
        double[] rate = new double[threads.size()];
        for (int t = 0; t < threads.size(); t++) {
          CellSummary cell = find(cells, system, threads.get(t), r);
          rate[t] = cell == null || cell.failed ? Double.NaN : cell.meanTps;
        }
        series.add(new BarChart.Series(system, rate));
      }
      figures.add(
          new Figure(
              new BarChart(
                  "TPS at " + r + " requests per thread",
                  "client threads",
                  "transactions per second",
                  labels(threads),
                  series),
              "compare-tps-r" + r + ".png"));
    }
    return figures;
  }

  /** Writes every figure's PNG into {@code dir}. */
  static void writePngs(Path dir, List<Figure> figures) throws IOException {
    Files.createDirectories(dir);
    for (Figure f : figures) {
      ChartPainter.png(f.chart, dir.resolve(f.png));
    }
  }

  /** The HTML page. {@code descriptions} maps each system to its one-line description. */
  static String html(
      StressOptions options,
      Map<String, String> descriptions,
      List<CellSummary> cells,
      Map<String, List<Figure>> systemFigures,
      List<Figure> comparison,
      String environment) {
    StringBuilder h = new StringBuilder(HEAD);
    h.append("<h1>RPCX stress test</h1>\n<p>")
        .append(esc(grid(options)))
        .append(options.quick ? " <b>Quick mode.</b>" : "")
        .append("</p>\n<p>")
        .append(esc(environment))
        .append("</p>\n")
        .append("<p>Data: <a href=\"stress-runs.csv\">stress-runs.csv</a> (every run),")
        .append(" <a href=\"stress-cells.csv\">stress-cells.csv</a> (per cell),")
        .append(" <a href=\"summary.md\">summary.md</a> (the tables and the command).")
        .append(" Charts as PNG in <code>charts/</code>.</p>\n");

    h.append("<h2>Systems</h2>\n<ul>\n");
    for (Map.Entry<String, String> e : descriptions.entrySet()) {
      h.append("<li><b>")
          .append(esc(e.getKey()))
          .append("</b>: ")
          .append(esc(e.getValue()))
          .append("</li>\n");
    }
    h.append("</ul>\n");

    for (Map.Entry<String, List<Figure>> e : systemFigures.entrySet()) {
      String system = e.getKey();
      h.append("<h2>").append(esc(system)).append("</h2>\n");
      table(h, system, options, cells);
      if (e.getValue().isEmpty()) {
        h.append("<p>No cell of this system completed, so there is nothing to chart.</p>\n");
      }
      for (Figure f : e.getValue()) {
        h.append(ChartPainter.svg(f.chart));
      }
    }
    if (!comparison.isEmpty()) {
      h.append("<h2>All systems</h2>\n");
      for (Figure f : comparison) {
        h.append(ChartPainter.svg(f.chart));
      }
    }

    h.append("<h2>Failed cells</h2>\n");
    List<CellSummary> failed = new ArrayList<>();
    for (CellSummary c : cells) {
      if (c.failed) {
        failed.add(c);
      }
    }
    if (failed.isEmpty()) {
      h.append("<p>None.</p>\n");
    } else {
      h.append(
          "<table>\n"
              + "<tr><th>system</th><th>threads</th><th>requests</th><th"
              + " style=\"text-align:left\">reason</th></tr>\n");
      for (CellSummary c : failed) {
        h.append("<tr class=\"failed\"><td>")
            .append(esc(c.system))
            .append("</td><td>")
            .append(c.threads)
            .append("</td><td>")
            .append(c.requests)
            .append("</td><td style=\"text-align:left\">")
            .append(esc(c.reason))
            .append("</td></tr>\n");
      }
      h.append("</table>\n");
    }
    return h.append("</body>\n</html>\n").toString();
  }

  /**
   * The summary to keep in git (the page, charts and CSV files stay in the results folder): the
   * command, the machine, the grid, every cell's TPS and p99 per system, the failed cells.
   */
  static String markdown(
      StressOptions options,
      Map<String, String> descriptions,
      List<CellSummary> cells,
      String environment) {
    StringBuilder md = new StringBuilder("# Stress test: ");
    md.append(String.join(", ", options.systems))
        .append(options.quick ? " (quick mode)" : "")
        .append("\n\n```sh\n")
        .append(CommandLine.of(StressTool.class, options.arguments))
        .append("\n```\n\n")
        .append(environment)
        .append("\n\n")
        .append(grid(options))
        .append("\n\n");
    for (Map.Entry<String, String> e : descriptions.entrySet()) {
      md.append("- `").append(e.getKey()).append("`: ").append(e.getValue()).append('\n');
    }
    md.append("\n| threads | requests |");
    StringBuilder rule = new StringBuilder("|---:|---:|");
    for (String system : options.systems) {
      md.append(' ').append(system).append(" TPS | ").append(system).append(" p99 ms |");
      rule.append("---:|---:|");
    }
    md.append('\n').append(rule).append('\n');
    for (int t : options.threads) {
      for (int r : options.requests) {
        md.append("| ").append(t).append(" | ").append(r).append(" |");
        for (String system : options.systems) {
          CellSummary c = find(cells, system, t, r);
          if (c == null) {
            md.append(" – | – |");
          } else if (c.failed) {
            md.append(" **FAILED** | – |");
          } else {
            md.append(String.format(Locale.ROOT, " %,.0f | %.2f |", c.meanTps, c.p99Millis));
          }
        }
        md.append('\n');
      }
    }
    md.append("\nFailed cells: ");
    List<String> failed = new ArrayList<>();
    for (CellSummary c : cells) {
      if (c.failed) {
        failed.add(c.system + " " + c.threads + " x " + c.requests + ": " + c.reason);
      }
    }
    md.append(failed.isEmpty() ? "none." : failed.size() + ".\n\n- " + String.join("\n- ", failed));
    return md.append('\n').toString();
  }

  /** What the grid is, in one sentence. */
  private static String grid(StressOptions options) {
    return String.format(
        Locale.ROOT,
        "Grid: threads %s x requests per thread %s; %d runs per cell, the first dropped;"
            + " cell time limit %d s; small echo call (16-byte string);"
            + " TPS = threads x requests / seconds.",
        options.threads,
        options.requests,
        options.runs,
        options.cellTimeout.getSeconds());
  }

  private static void table(
      StringBuilder h, String system, StressOptions options, List<CellSummary> cells) {
    h.append("<table>\n<tr><th>threads \\ requests</th>");
    for (int r : options.requests) {
      h.append("<th>").append(r).append("</th>");
    }
    h.append("</tr>\n");
    for (int t : options.threads) {
      h.append("<tr><th>").append(t).append("</th>");
      for (int r : options.requests) {
        CellSummary c = find(cells, system, t, r);
        if (c == null) {
          h.append("<td></td>");
        } else if (c.failed) {
          h.append("<td class=\"failed\" title=\"").append(esc(c.reason)).append("\">FAILED</td>");
        } else {
          h.append(
              String.format(
                  Locale.ROOT,
                  "<td>%.1f ms<br>%,.0f TPS<br>p99 %.2f ms</td>",
                  c.meanMillis,
                  c.meanTps,
                  c.p99Millis));
        }
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  private static CellSummary find(
      List<CellSummary> cells, String system, int threads, int requests) {
    for (CellSummary c : cells) {
      if (c.system.equals(system) && c.threads == threads && c.requests == requests) {
        return c;
      }
    }
    return null;
  }

  private static List<String> labels(List<Integer> values) {
    List<String> labels = new ArrayList<>();
    for (int v : values) {
      labels.add(Integer.toString(v));
    }
    return labels;
  }

  private static String esc(String text) {
    return SvgCanvas.escape(text);
  }

  /** Writes the page (or the Markdown summary) to {@code file}. */
  static void writeText(Path file, String text) throws IOException {
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Figures keyed by system, in system order. */
  static Map<String, List<Figure>> bySystem(
      List<String> systems, StressOptions options, List<CellSummary> cells) {
    Map<String, List<Figure>> figures = new LinkedHashMap<>();
    for (String system : systems) {
      figures.put(system, systemFigures(system, options.threads, options.requests, cells));
    }
    return figures;
  }
}
