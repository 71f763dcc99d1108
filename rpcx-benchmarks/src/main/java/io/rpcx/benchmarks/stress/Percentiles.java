package io.rpcx.benchmarks.stress;

/** Nearest-rank percentiles of sorted samples. Stateless. */
final class Percentiles {
  private Percentiles() {}

  /**
   * The smallest sample such that at least {@code p} percent of the samples are at or below it
   * (nearest-rank); NaN when there are no samples.
   *
   * @param sorted samples in ascending order
   * @param p percentile, in (0, 100]
   */
  static double of(long[] sorted, double p) {
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("p: " + p + " (expected: 0 < p <= 100)");
    }
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(rank, 1) - 1];
  }
}
