package io.rpcx.benchmarks.stress;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One axis of the stress grid: a list of positive counts, written as {@code from:to:step} (the
 * paper's "10 to 990 in steps of 100") or as a comma-separated list. Immutable.
 */
final class Grid {
  private Grid() {}

  /** Parses {@code 10:990:100} (10, 110, ..., 910) or {@code 10,50,100}. */
  static List<Integer> parse(String spec) {
    List<Integer> values = new ArrayList<>();
    if (spec.contains(":")) {
      String[] parts = spec.split(":", -1);
      if (parts.length != 3) {
        throw new IllegalArgumentException(
            "grid: '" + spec + "' (expected: from:to:step or a,b,c)");
      }
      int from = positive(parts[0], spec);
      int to = positive(parts[1], spec);
      int step = positive(parts[2], spec);
      for (int v = from; v <= to; v += step) {
        values.add(v);
      }
    } else {
      for (String part : spec.split(",", -1)) {
        values.add(positive(part, spec));
      }
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException("grid: '" + spec + "' is empty (expected: from <= to)");
    }
    return Collections.unmodifiableList(values);
  }

  private static int positive(String text, String spec) {
    int value;
    try {
      value = Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "grid: '" + spec + "' has '" + text + "' (expected: a positive integer)");
    }
    if (value <= 0) {
      throw new IllegalArgumentException("grid: '" + spec + "' has " + value + " (expected: > 0)");
    }
    return value;
  }
}
