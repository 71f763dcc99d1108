package io.rpcx.benchmarks.stress;

import java.util.Arrays;
import java.util.List;

/**
 * The result of one cell as the paper reports it: the mean time and TPS of the runs that count
 * (every run but the dropped first one), and the percentiles of their calls. A cell with any failed
 * run is FAILED, with that run's reason. Immutable.
 */
final class CellSummary {
  final String system;
  final int threads;
  final int requests;
  final int countedRuns;
  final double meanMillis;
  final double meanTps;
  final double p50Millis;
  final double p99Millis;
  final boolean failed;
  final String reason;

  private CellSummary(
      String system,
      int threads,
      int requests,
      int countedRuns,
      double meanMillis,
      double meanTps,
      double p50Millis,
      double p99Millis,
      boolean failed,
      String reason) {
    this.system = system;
    this.threads = threads;
    this.requests = requests;
    this.countedRuns = countedRuns;
    this.meanMillis = meanMillis;
    this.meanTps = meanTps;
    this.p50Millis = p50Millis;
    this.p99Millis = p99Millis;
    this.failed = failed;
    this.reason = reason;
  }

  /** Summarises the runs of one cell, in run order. */
  static CellSummary of(List<RunResult> runs) {
    RunResult first = runs.get(0);
    double millis = 0;
    double tps = 0;
    int counted = 0;
    int samples = 0;
    String reason = "";
    for (RunResult r : runs) {
      if (r.status == RunResult.Status.OK) {
        millis += r.millis;
        tps += r.tps();
        counted++;
        samples += r.latencies.length;
      } else if (r.status == RunResult.Status.FAILED && reason.isEmpty()) {
        reason = r.started() ? "run " + r.run + ": " + r.reason : r.reason;
      }
    }
    long[] merged = new long[samples];
    int at = 0;
    for (RunResult r : runs) {
      if (r.status == RunResult.Status.OK) {
        System.arraycopy(r.latencies, 0, merged, at, r.latencies.length);
        at += r.latencies.length;
      }
    }
    Arrays.sort(merged);
    boolean failed = !reason.isEmpty() || counted == 0;
    if (failed && reason.isEmpty()) {
      reason = "no run counted";
    }
    return new CellSummary(
        first.system,
        first.threads,
        first.requests,
        counted,
        counted == 0 ? Double.NaN : millis / counted,
        counted == 0 ? Double.NaN : tps / counted,
        Percentiles.of(merged, 50) / 1e6,
        Percentiles.of(merged, 99) / 1e6,
        failed,
        reason);
  }
}
