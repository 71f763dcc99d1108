package io.rpcx.benchmarks.stress;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A grouped bar chart: one group of bars per category (x axis), one bar per series in each group. A
 * value of NaN is a missing bar, drawn as a red cross (a failed cell). Immutable once built.
 */
final class BarChart {
  /** One series: a name for the legend and one value per category. */
  static final class Series {
    final String name;
    final double[] values;

    Series(String name, double[] values) {
      this.name = name;
      this.values = values.clone();
    }
  }

  final String title;
  final String xLabel;
  final String yLabel;
  final List<String> categories;
  final List<Series> series;

  BarChart(
      String title, String xLabel, String yLabel, List<String> categories, List<Series> series) {
    for (Series s : series) {
      if (s.values.length != categories.size()) {
        throw new IllegalArgumentException(
            "series '"
                + s.name
                + "' has "
                + s.values.length
                + " values (expected: "
                + categories.size()
                + ", one per category)");
      }
    }
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.categories = Collections.unmodifiableList(new ArrayList<>(categories));
    this.series = Collections.unmodifiableList(new ArrayList<>(series));
  }

  /** The largest finite value, or 0 if there is none. */
  double max() {
    double max = 0;
    for (Series s : series) {
      for (double v : s.values) {
        if (Double.isFinite(v)) {
          max = Math.max(max, v);
        }
      }
    }
    return max;
  }
}
