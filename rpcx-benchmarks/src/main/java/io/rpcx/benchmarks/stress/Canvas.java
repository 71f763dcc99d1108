package io.rpcx.benchmarks.stress;

import java.awt.Color;

/**
 * What {@link ChartPainter} draws on: rectangles, lines and text in pixel coordinates (origin top
 * left). Implemented for SVG ({@link SvgCanvas}) and for PNG ({@link ImageCanvas}), so both formats
 * show the same chart.
 */
interface Canvas {
  /** Where a text's x coordinate is: its start, middle or end. */
  enum Anchor {
    START,
    MIDDLE,
    END
  }

  void rect(double x, double y, double width, double height, Color fill);

  void line(double x1, double y1, double x2, double y2, Color stroke, double width);

  /**
   * Text whose baseline starts, is centred or ends at (x, y); {@code vertical} turns it 90°
   * anticlockwise.
   */
  void text(
      double x,
      double y,
      String text,
      int size,
      Anchor anchor,
      boolean bold,
      Color color,
      boolean vertical);
}
