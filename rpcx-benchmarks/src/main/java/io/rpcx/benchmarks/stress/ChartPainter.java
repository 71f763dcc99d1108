package io.rpcx.benchmarks.stress;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Lays out a {@link BarChart} on a {@link Canvas}: title, legend, y axis with round ticks, one
 * group of bars per category, red crosses for missing values. The same layout code serves the SVG
 * of the HTML report and the PNG images, so they always agree. Stateless.
 */
final class ChartPainter {
  static final int WIDTH = 960;
  static final int HEIGHT = 440;

  private static final Color[] PALETTE = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd),
    new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf), new Color(0xbcbd22),
    new Color(0x7f7f7f), new Color(0xd62728)
  };
  private static final Color TEXT = new Color(0x222222);
  private static final Color GRID = new Color(0xdddddd);
  private static final Color FAILED = new Color(0xcc0000);
  private static final int LEFT = 84;
  private static final int RIGHT = 20;
  private static final int TOP = 70;
  private static final int BOTTOM = 62;

  private ChartPainter() {}

  /** The chart as an SVG document. */
  static String svg(BarChart chart) {
    SvgCanvas canvas = new SvgCanvas(WIDTH, HEIGHT, chart.title);
    paint(chart, canvas, WIDTH, HEIGHT);
    return canvas.toSvg();
  }

  /** Writes the chart as a PNG image. */
  static void png(BarChart chart, Path file) throws IOException {
    ImageCanvas canvas = new ImageCanvas(WIDTH, HEIGHT);
    paint(chart, canvas, WIDTH, HEIGHT);
    canvas.writePng(file);
  }

  static void paint(BarChart chart, Canvas c, int width, int height) {
    double left = LEFT;
    double right = width - RIGHT;
    double top = TOP;
    double bottom = height - BOTTOM;

    c.text(width / 2.0, 24, chart.title, 16, Canvas.Anchor.MIDDLE, true, TEXT, false);
    double x = left;
    for (int s = 0; s < chart.series.size(); s++) {
      String name = chart.series.get(s).name;
      c.rect(x, 38, 11, 11, color(s));
      c.text(x + 15, 48, name, 12, Canvas.Anchor.START, false, TEXT, false);
      x += 15 + 7.2 * name.length() + 18;
    }

    double step = niceStep(chart.max() / 5);
    double yTop = Math.max(step, step * Math.ceil(chart.max() / step));
    for (double v = 0; v <= yTop + step / 2; v += step) {
      double y = bottom - v / yTop * (bottom - top);
      c.line(left, y, right, y, GRID, 1);
      c.text(left - 6, y + 4, tickLabel(v, step), 11, Canvas.Anchor.END, false, TEXT, false);
    }
    c.text(18, (top + bottom) / 2, chart.yLabel, 12, Canvas.Anchor.MIDDLE, false, TEXT, true);

    int groups = chart.categories.size();
    int bars = Math.max(1, chart.series.size());
    double groupWidth = (right - left) / Math.max(1, groups);
    double barWidth = groupWidth * 0.8 / bars;
    boolean anyMissing = false;
    for (int g = 0; g < groups; g++) {
      double groupLeft = left + g * groupWidth + groupWidth * 0.1;
      for (int s = 0; s < chart.series.size(); s++) {
        double v = chart.series.get(s).values[g];
        double barLeft = groupLeft + s * barWidth;
        if (Double.isFinite(v)) {
          double h = v / yTop * (bottom - top);
          c.rect(barLeft, bottom - h, Math.max(1, barWidth - 1), h, color(s));
        } else {
          anyMissing = true;
          c.text(
              barLeft + barWidth / 2,
              bottom - 3,
              "×",
              14,
              Canvas.Anchor.MIDDLE,
              true,
              FAILED,
              false);
        }
      }
      c.text(
          left + g * groupWidth + groupWidth / 2,
          bottom + 17,
          chart.categories.get(g),
          11,
          Canvas.Anchor.MIDDLE,
          false,
          TEXT,
          false);
    }
    c.line(left, bottom, right, bottom, TEXT, 1);
    c.line(left, top, left, bottom, TEXT, 1);
    c.text(
        (left + right) / 2,
        height - 18,
        chart.xLabel,
        12,
        Canvas.Anchor.MIDDLE,
        false,
        TEXT,
        false);
    if (anyMissing) {
      c.text(
          right, height - 18, "× failed or not run", 11, Canvas.Anchor.END, false, FAILED, false);
    }
  }

  /** The colour of series {@code index}. */
  static Color color(int index) {
    return PALETTE[index % PALETTE.length];
  }

  /**
   * The smallest of 1, 2, 2.5, 5 times a power of ten that is at least {@code rough} (1 if rough is
   * 0).
   */
  static double niceStep(double rough) {
    if (!(rough > 0)) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (m * magnitude >= rough * (1 - 1e-9)) {
        return m * magnitude;
      }
    }
    return 10 * magnitude;
  }

  /**
   * A tick value with just the decimals its step needs: millions as M and thousands as k when the
   * step is that coarse, otherwise the plain number with thousands separated (1,250).
   */
  static String tickLabel(double value, double step) {
    if (value == 0) {
      return "0";
    }
    String suffix = "";
    if (step >= 1_000_000 || (Math.abs(value) >= 1_000_000 && step >= 100_000)) {
      value /= 1_000_000;
      step /= 1_000_000;
      suffix = "M";
    } else if (step >= 1_000) {
      value /= 1_000;
      step /= 1_000;
      suffix = "k";
    }
    int decimals = 0;
    while (decimals < 6
        && Math.abs(step * Math.pow(10, decimals) - Math.rint(step * Math.pow(10, decimals)))
            > 1e-6) {
      decimals++;
    }
    return String.format(Locale.ROOT, "%,." + decimals + "f", value) + suffix;
  }
}
