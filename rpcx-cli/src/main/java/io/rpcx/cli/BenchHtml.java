package io.rpcx.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTML report of {@code rpcx bench --html}: one self-contained page (no script or style from
 * elsewhere) with the summary, the latency histogram and percentiles as inline SVG bar charts, calls
 * per second and latency over time as SVG line charts, and the whole summary as JSON in a {@code
 * <script type="application/json" id="rpcx-bench">} element for tools.
 */
final class BenchHtml {
  private static final int WIDTH = 720;
  private static final int HEIGHT = 240;
  private static final int LEFT = 70;
  private static final int BOTTOM = 40;

  private BenchHtml() {}

  static String page(BenchResult result) {
    StringBuilder html = new StringBuilder();
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>rpcx bench: ").append(escape(result.method())).append("</title>\n")
        .append("<style>\n")
        .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:60em}\n")
        .append("table{border-collapse:collapse;margin:1em 0}td,th{padding:.2em .8em;")
        .append("border-bottom:1px solid #ddd;text-align:right}th{text-align:left}\n")
        .append("svg{background:#fafafa;border:1px solid #ddd;margin:.5em 0}\n")
        .append(".bar{fill:#4878d0}.line{fill:none;stroke:#4878d0;stroke-width:2}")
        .append(".line2{fill:none;stroke:#d65f5f;stroke-width:2}")
        .append(".axis{stroke:#888}text{font-size:11px;fill:#444}\n")
        .append("</style>\n</head>\n<body>\n")
        .append("<h1>rpcx bench: ").append(escape(result.method())).append("</h1>\n");

    html.append("<h2>Summary</h2>\n<table>\n");
    row(html, "Count", String.valueOf(result.count()));
    row(html, "OK", String.valueOf(result.ok()));
    row(html, "Errors", String.valueOf(result.errorCount()));
    row(html, "Duration", format("%.2f s", result.elapsed().toNanos() / 1e9));
    row(html, "Calls/s", format("%.1f", result.rate()));
    row(html, "Concurrency", String.valueOf(result.concurrency()));
    if (result.interrupted()) {
      row(html, "Interrupted", "yes: the calls answered until then");
    }
    html.append("</table>\n");

    if (result.ok() == 0) {
      html.append("<h2>Latency</h2>\n<p>No call succeeded: no latencies to report.</p>\n");
    } else {
      latency(html, result);
    }

    List<Double> at = new ArrayList<>();
    List<Double> rate = new ArrayList<>();
    List<Double> p50 = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    for (BenchResult.Second second : result.timeline()) {
      at.add(second.at());
      rate.add(second.seconds() == 0 ? 0 : second.calls() / second.seconds());
      p50.add(second.p50());
      p99.add(second.p99());
    }
    html.append("<h2>Over time</h2>\n");
    html.append(lines("Calls per second", at, rate, null));
    html.append(lines("Latency (ms): p50 (blue), p99 (red)", at, p50, p99));

    if (!result.errors().isEmpty()) {
      html.append("<h2>Errors by status</h2>\n<table>\n");
      for (Map.Entry<String, Long> error : result.errors().entrySet()) {
        html.append("<tr><th>").append(escape(error.getKey())).append("</th><td>")
            .append(error.getValue()).append("</td><td style=\"text-align:left\">")
            .append(escape(result.firstErrors().get(error.getKey()))).append("</td></tr>\n");
      }
      html.append("</table>\n");
    }
    html.append("<script type=\"application/json\" id=\"rpcx-bench\">\n")
        .append(Json.write(result.summary()).replace("</", "<\\/"))
        .append("\n</script>\n</body>\n</html>\n");
    return html.toString();
  }

  /** The latency percentiles and histogram of the successful calls. */
  private static void latency(StringBuilder html, BenchResult result) {
    html.append("<h2>Latency of successful calls (ms)</h2>\n<table>\n");
    List<String> labels = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    labels.add("min");
    values.add(result.min());
    for (double percentile : BenchResult.PERCENTILES) {
      labels.add(BenchResult.label(percentile));
      values.add(result.percentile(percentile));
    }
    labels.add("max");
    values.add(result.max());
    for (int i = 0; i < labels.size(); i++) {
      row(html, labels.get(i), format("%.3f", values.get(i)));
    }
    row(html, "mean", format("%.3f", result.mean()));
    html.append("</table>\n");
    html.append(bars("Latency percentiles (ms)", labels, values));

    List<String> bucketLabels = new ArrayList<>();
    List<Double> counts = new ArrayList<>();
    for (BenchResult.Bucket bucket : result.buckets()) {
      bucketLabels.add(format("%.2f", bucket.to()));
      counts.add((double) bucket.count());
    }
    html.append("<h2>Latency histogram</h2>\n<p>Successful calls by latency (upper bound of each"
        + " bucket, ms).</p>\n");
    html.append(bars("Calls", bucketLabels, counts));

  }

  private static String bars(String title, List<String> labels, List<Double> values) {
    StringBuilder svg = open(title);
    double most = 0;
    for (double value : values) {
      most = Math.max(most, value);
    }
    int plotWidth = WIDTH - LEFT - 20;
    int plotHeight = HEIGHT - BOTTOM - 30;
    double slot = values.isEmpty() ? plotWidth : (double) plotWidth / values.size();
    axes(svg, most);
    for (int i = 0; i < values.size(); i++) {
      double height = most == 0 ? 0 : plotHeight * values.get(i) / most;
      double x = LEFT + i * slot + slot * 0.1;
      double y = HEIGHT - BOTTOM - height;
      svg.append(format("<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
              + "<title>%s: %s</title></rect>%n",
          x, y, slot * 0.8, height, escape(labels.get(i)), number(values.get(i))));
      svg.append(format("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
          x + slot * 0.4, HEIGHT - BOTTOM + 15, escape(labels.get(i))));
    }
    return svg.append("</svg>\n").toString();
  }

  private static String lines(String title, List<Double> xs, List<Double> ys, List<Double> ys2) {
    StringBuilder svg = open(title);
    double most = 0;
    for (double value : ys) {
      most = Math.max(most, value);
    }
    if (ys2 != null) {
      for (double value : ys2) {
        most = Math.max(most, value);
      }
    }
    double last = xs.isEmpty() ? 1 : Math.max(1e-9, xs.get(xs.size() - 1));
    axes(svg, most);
    path(svg, "line", xs, ys, most, last);
    if (ys2 != null) {
      path(svg, "line2", xs, ys2, most, last);
    }
    for (int i = 0; i < xs.size(); i++) {
      svg.append(format("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0fs</text>%n",
          x(xs.get(i), last), HEIGHT - BOTTOM + 15, xs.get(i)));
    }
    return svg.append("</svg>\n").toString();
  }

  private static void path(StringBuilder svg, String style, List<Double> xs, List<Double> ys,
      double most, double last) {
    StringBuilder points = new StringBuilder();
    int plotHeight = HEIGHT - BOTTOM - 30;
    for (int i = 0; i < xs.size(); i++) {
      double y = HEIGHT - BOTTOM - (most == 0 ? 0 : plotHeight * ys.get(i) / most);
      points.append(format("%.1f,%.1f ", x(xs.get(i), last), y));
    }
    svg.append("<polyline class=\"").append(style).append("\" points=\"")
        .append(points.toString().strip()).append("\"/>\n");
  }

  private static double x(double at, double last) {
    return LEFT + (WIDTH - LEFT - 20) * at / last;
  }

  private static StringBuilder open(String title) {
    StringBuilder svg = new StringBuilder();
    svg.append(format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
        + " viewBox=\"0 0 %d %d\" role=\"img\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
    svg.append("<title>").append(escape(title)).append("</title>\n");
    svg.append(format("<text x=\"%d\" y=\"16\">%s</text>%n", LEFT, escape(title)));
    return svg;
  }

  private static void axes(StringBuilder svg, double most) {
    svg.append(format("<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>%n",
        LEFT, HEIGHT - BOTTOM, WIDTH - 10, HEIGHT - BOTTOM));
    svg.append(format("<line class=\"axis\" x1=\"%d\" y1=\"30\" x2=\"%d\" y2=\"%d\"/>%n",
        LEFT, LEFT, HEIGHT - BOTTOM));
    svg.append(format("<text x=\"%d\" y=\"34\" text-anchor=\"end\">%s</text>%n", LEFT - 5,
        number(most)));
    svg.append(format("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>%n", LEFT - 5,
        HEIGHT - BOTTOM));
  }

  private static void row(StringBuilder html, String name, String value) {
    html.append("<tr><th>").append(escape(name)).append("</th><td>").append(escape(value))
        .append("</td></tr>\n");
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? String.valueOf((long) value)
        : format("%.3f", value);
  }

  private static String format(String pattern, Object... values) {
    return String.format(Locale.ROOT, pattern, values);
  }

  static String escape(String text) {
    if (text == null) {
      return "";
    }
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
