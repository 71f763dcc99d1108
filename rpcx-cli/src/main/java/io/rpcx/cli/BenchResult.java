package io.rpcx.cli;

import io.rpcx.core.StatusCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * What a load test measured: calls answered, failures by status, the latency histogram of the
 * successful calls, and a timeline of each second. Printed as text, JSON ({@link #summary()}) or a
 * self-contained HTML page ({@link BenchHtml}).
 *
 * @param method {@code service/method}
 * @param concurrency calls in flight at once
 * @param ok calls that returned a result
 * @param errors failed calls by status name
 * @param firstErrors the message of the first failure of each status
 * @param elapsed from the first call sent to the last answered
 * @param latency the latencies of successful calls, in nanoseconds
 * @param timeline one entry per second
 * @param interrupted whether the run was stopped early (Ctrl-C): what it holds is what ran until then
 */
record BenchResult(
    String method,
    int concurrency,
    long ok,
    Map<String, Long> errors,
    Map<String, String> firstErrors,
    Duration elapsed,
    Histogram latency,
    List<Second> timeline,
    boolean interrupted) {

  /** The percentiles reported. */
  static final double[] PERCENTILES = {50, 90, 99, 99.9};

  /**
   * One second of the test.
   *
   * @param at seconds since the start, at its end
   * @param seconds how long it lasted (the last one may be shorter)
   * @param calls calls answered in it, failed ones included
   * @param errors failed calls in it
   * @param p50 median latency of its successful calls, ms
   * @param p99 99th percentile latency of its successful calls, ms
   */
  record Second(double at, double seconds, long calls, long errors, double p50, double p99) {}

  /**
   * A bucket of the latency histogram.
   *
   * @param from lower bound, ms
   * @param to upper bound, ms
   * @param count successful calls whose latency is in it
   */
  record Bucket(double from, double to, long count) {}

  /** Every call answered: successes and failures. */
  long count() {
    return ok + errorCount();
  }

  long errorCount() {
    long count = 0;
    for (long each : errors.values()) {
      count += each;
    }
    return count;
  }

  /**
   * The exit code of the run: 0 when every call succeeded, {@value ExitCodes#INTERRUPTED} when it
   * was interrupted, else the code of the status most failed calls had (the first such status in
   * name order when two tie).
   */
  int exitCode() {
    if (interrupted) {
      return ExitCodes.INTERRUPTED;
    }
    String most = null;
    for (Map.Entry<String, Long> error : errors.entrySet()) {
      if (most == null || error.getValue() > errors.get(most)) {
        most = error.getKey();
      }
    }
    if (most == null) {
      return ExitCodes.OK;
    }
    for (StatusCode status : StatusCode.values()) {
      if (status.name().equals(most)) {
        return ExitCodes.of(status);
      }
    }
    return ExitCodes.SOFTWARE; // not an RpcxException: a failure of rpcx itself
  }

  /** Calls answered per second. */
  double rate() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds == 0 ? 0 : count() / seconds;
  }

  /** Latency at {@code percentile}, in ms; 0 when no call succeeded. */
  double percentile(double percentile) {
    return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(percentile) / 1e6;
  }

  double min() {
    return latency.getTotalCount() == 0 ? 0 : latency.getMinValue() / 1e6;
  }

  double max() {
    return latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / 1e6;
  }

  double mean() {
    return latency.getTotalCount() == 0 ? 0 : latency.getMean() / 1e6;
  }

  /**
   * The latency histogram in up to 12 buckets growing geometrically from min to max; every
   * successful call is in exactly one.
   */
  List<Bucket> buckets() {
    List<Bucket> buckets = new ArrayList<>();
    if (latency.getTotalCount() == 0) {
      return buckets;
    }
    long low = Math.max(1, latency.getMinValue());
    long high = Math.max(low, latency.getMaxValue());
    int count = high == low ? 1 : 12;
    double ratio = Math.pow((double) high / low, 1.0 / count);
    long[] upper = new long[count];
    for (int i = 0; i < count; i++) {
      upper[i] = i == count - 1 ? high : (long) Math.ceil(low * Math.pow(ratio, i + 1));
    }
    long[] counts = new long[count];
    for (HistogramIterationValue value : latency.recordedValues()) {
      int i = 0;
      while (i < count - 1 && value.getValueIteratedTo() > upper[i]) {
        i++;
      }
      counts[i] += value.getCountAtValueIteratedTo();
    }
    long from = low;
    for (int i = 0; i < count; i++) {
      buckets.add(new Bucket(from / 1e6, upper[i] / 1e6, counts[i]));
      from = upper[i];
    }
    return buckets;
  }

  /** The summary as a JSON tree: what {@code --json} prints and the HTML report embeds. */
  Map<String, Object> summary() {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("method", method);
    summary.put("interrupted", interrupted);
    summary.put("concurrency", concurrency);
    summary.put("count", count());
    summary.put("ok", ok);
    summary.put("errors", errorCount());
    summary.put("durationSeconds", round(elapsed.toNanos() / 1e9));
    summary.put("callsPerSecond", round(rate()));
    Map<String, Object> latencyMs = null; // no call succeeded: no latency, rather than zeros
    if (ok > 0) {
      latencyMs = new LinkedHashMap<>();
      latencyMs.put("min", round(min()));
      latencyMs.put("mean", round(mean()));
      for (double percentile : PERCENTILES) {
        latencyMs.put(label(percentile), round(percentile(percentile)));
      }
      latencyMs.put("max", round(max()));
    }
    summary.put("latencyMs", latencyMs);
    List<Map<String, Object>> histogram = new ArrayList<>();
    for (Bucket bucket : buckets()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("fromMs", round(bucket.from()));
      entry.put("toMs", round(bucket.to()));
      entry.put("count", bucket.count());
      histogram.add(entry);
    }
    summary.put("histogram", histogram);
    Map<String, Object> byStatus = new LinkedHashMap<>();
    errors.forEach(
        (status, count) -> {
          Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("count", count);
          entry.put("first", firstErrors.get(status));
          byStatus.put(status, entry);
        });
    summary.put("errorsByStatus", byStatus);
    List<Map<String, Object>> seconds = new ArrayList<>();
    for (Second second : timeline) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("at", round(second.at()));
      entry.put("callsPerSecond", round(second.seconds() == 0 ? 0 : second.calls() / second.seconds()));
      entry.put("errors", second.errors());
      entry.put("p50Ms", round(second.p50()));
      entry.put("p99Ms", round(second.p99()));
      seconds.add(entry);
    }
    summary.put("timeline", seconds);
    return summary;
  }

  /** The summary as text, for people. */
  String text() {
    StringBuilder text = new StringBuilder();
    text.append("Summary of ").append(method);
    if (interrupted) {
      text.append(" (interrupted: the calls answered until then)");
    }
    text.append('\n');
    line(text, "Count", String.valueOf(count()));
    line(text, "OK", String.valueOf(ok));
    line(text, "Errors", String.valueOf(errorCount()));
    line(text, "Duration", format("%.2f s", elapsed.toNanos() / 1e9));
    line(text, "Calls/s", format("%.1f", rate()));
    line(text, "Concurrency", String.valueOf(concurrency));
    if (ok == 0) {
      text.append("\nNo call succeeded: no latencies to report.\n");
    } else {
      text.append("\nLatency of successful calls (ms):\n");
      line(text, "min", format("%.3f", min()));
      line(text, "mean", format("%.3f", mean()));
      for (double percentile : PERCENTILES) {
        line(text, label(percentile), format("%.3f", percentile(percentile)));
      }
      line(text, "max", format("%.3f", max()));
    }
    List<Bucket> buckets = buckets();
    if (!buckets.isEmpty()) {
      text.append("\nLatency histogram (ms):\n");
      long most = 1;
      for (Bucket bucket : buckets) {
        most = Math.max(most, bucket.count());
      }
      for (Bucket bucket : buckets) {
        text.append(format("  %9.3f - %9.3f [%d]", bucket.from(), bucket.to(), bucket.count()));
        text.append(" ".repeat(Math.max(1, 10 - String.valueOf(bucket.count()).length())));
        text.append("|").append("#".repeat((int) Math.round(40.0 * bucket.count() / most)));
        text.append('\n');
      }
    }
    if (!errors.isEmpty()) {
      text.append("\nErrors by status:\n");
      errors.forEach(
          (status, count) ->
              text.append(format("  %-20s %d  (first: %s)%n", status, count, firstErrors.get(status))));
    }
    return text.toString();
  }

  static String label(double percentile) {
    return percentile == Math.rint(percentile)
        ? "p" + (long) percentile
        : "p" + String.valueOf(percentile);
  }

  private static void line(StringBuilder text, String name, String value) {
    text.append(format("  %-12s %s%n", name, value));
  }

  private static String format(String pattern, Object... values) {
    return String.format(Locale.ROOT, pattern, values);
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
