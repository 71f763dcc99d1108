package io.rpcx.benchmarks.stress;

import java.time.Duration;

/**
 * Counts finished cells and estimates the time left from the calls done so far: each cell weighs
 * its number of calls ({@code threads * requests * runs}), so big cells count for what they cost,
 * and a cell that was not run leaves the estimate. Not thread-safe.
 */
final class Progress {
  private final int totalCells;
  private double totalCalls;
  private final long startNanos;
  private int cellsDone;
  private double callsDone;

  Progress(int totalCells, double totalCalls, long startNanos) {
    this.totalCells = totalCells;
    this.totalCalls = totalCalls;
    this.startNanos = startNanos;
  }

  /** Records a finished cell of {@code calls} planned calls. */
  void cellDone(double calls) {
    cellsDone++;
    callsDone += calls;
  }

  /** Records a cell of {@code calls} planned calls that was not run (its system is unavailable). */
  void cellSkipped(double calls) {
    cellsDone++;
    totalCalls -= calls;
  }

  /** "cell 3/45, elapsed 1m05s, ETA 4m10s" at {@code nowNanos}. */
  String status(long nowNanos) {
    Duration elapsed = Duration.ofNanos(nowNanos - startNanos);
    // Before 5% of the calls the fixed costs (start-up, warm-up, thread creation) dominate the
    // rate.
    String eta =
        callsDone < 0.05 * totalCalls
            ? "estimating"
            : format(
                Duration.ofNanos(
                    (long) ((nowNanos - startNanos) * ((totalCalls - callsDone) / callsDone))));
    return "cell " + cellsDone + "/" + totalCells + ", elapsed " + format(elapsed) + ", ETA " + eta;
  }

  /** {@code 1h02m03s}, {@code 2m03s} or {@code 3s}. */
  static String format(Duration d) {
    long s = Math.max(0, d.getSeconds());
    if (s >= 3600) {
      return String.format("%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60);
    }
    if (s >= 60) {
      return String.format("%dm%02ds", s / 60, s % 60);
    }
    return s + "s";
  }
}
