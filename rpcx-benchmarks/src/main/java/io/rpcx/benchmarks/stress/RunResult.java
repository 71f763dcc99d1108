package io.rpcx.benchmarks.stress;

/**
 * One run of one cell: {@code threads} threads each making {@code requests} echo calls. Immutable;
 * {@link #latencies} (successful calls only, in nanoseconds, ascending) is kept only until the cell
 * is summarised.
 */
final class RunResult {
  /** What became of a run. */
  enum Status {
    /** Completed without errors and counted. */
    OK,
    /** The first run of its cell, completed without errors and dropped, as in the paper. */
    DROPPED,
    /** Had errors or exceeded the cell's time limit; {@link #reason} says which. */
    FAILED
  }

  final String system;
  final int threads;
  final int requests;

  /** The run's index in its cell (0 is the dropped one), or -1 for a run that never started. */
  final int run;

  final double millis;
  final int errors;
  final Status status;
  final String reason;
  final long[] latencies;

  RunResult(
      String system,
      int threads,
      int requests,
      int run,
      double millis,
      int errors,
      Status status,
      String reason,
      long[] latencies) {
    this.system = system;
    this.threads = threads;
    this.requests = requests;
    this.run = run;
    this.millis = millis;
    this.errors = errors;
    this.status = status;
    this.reason = reason;
    this.latencies = latencies;
  }

  /** A run that never happened because its system could not be started. */
  static RunResult notStarted(String system, int threads, int requests, String reason) {
    return new RunResult(
        system, threads, requests, -1, Double.NaN, 0, Status.FAILED, reason, new long[0]);
  }

  /** Whether the run was started at all. */
  boolean started() {
    return run >= 0;
  }

  /** Total calls of the run. */
  long totalRequests() {
    return (long) threads * requests;
  }

  /**
   * The paper's TPS: all calls of the run divided by its wall time in seconds; NaN if it did not
   * finish.
   */
  double tps() {
    return Double.isNaN(millis) || millis <= 0 ? Double.NaN : totalRequests() / (millis / 1000.0);
  }

  /** Median call latency in milliseconds. */
  double p50Millis() {
    return Percentiles.of(latencies, 50) / 1e6;
  }

  /** 99th percentile call latency in milliseconds. */
  double p99Millis() {
    return Percentiles.of(latencies, 99) / 1e6;
  }
}
