package io.rpcx.benchmarks.stress;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes the stress results as CSV (RFC 4180: comma-separated, fields with commas, quotes or line
 * breaks quoted, quotes doubled). Numbers use a dot and are empty when undefined. Stateless.
 */
final class Csv {
  static final String RUNS_HEADER =
      "system,threads,requests,run,millis,tps,errors,status,p50_ms,p99_ms,reason";
  static final String CELLS_HEADER =
      "system,threads,requests,counted_runs,mean_millis,mean_tps,p50_ms,p99_ms,status,reason";

  private Csv() {}

  /** One line per run, in the order given. */
  static void writeRuns(Path file, List<RunResult> runs) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(RUNS_HEADER);
      w.write('\n');
      for (RunResult r : runs) {
        w.write(
            line(
                r.system,
                r.threads,
                r.requests,
                r.started() ? Integer.toString(r.run) : "",
                number(r.millis, 3),
                number(r.tps(), 1),
                r.errors,
                r.status,
                number(r.p50Millis(), 3),
                number(r.p99Millis(), 3),
                r.reason));
      }
    }
  }

  /** One line per cell, in the order given. */
  static void writeCells(Path file, List<CellSummary> cells) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(CELLS_HEADER);
      w.write('\n');
      for (CellSummary c : cells) {
        w.write(
            line(
                c.system,
                c.threads,
                c.requests,
                c.countedRuns,
                number(c.meanMillis, 3),
                number(c.meanTps, 1),
                number(c.p50Millis, 3),
                number(c.p99Millis, 3),
                c.failed ? "FAILED" : "OK",
                c.reason));
      }
    }
  }

  /** The fields as one CSV line, ending in a newline. */
  static String line(Object... fields) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(escape(String.valueOf(fields[i])));
    }
    return sb.append('\n').toString();
  }

  /** The field, quoted if it has to be. */
  static String escape(String field) {
    if (field.indexOf(',') < 0
        && field.indexOf('"') < 0
        && field.indexOf('\n') < 0
        && field.indexOf('\r') < 0) {
      return field;
    }
    return '"' + field.replace("\"", "\"\"") + '"';
  }

  /** {@code value} with {@code decimals} decimals, or "" if it is NaN. */
  static String number(double value, int decimals) {
    return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
