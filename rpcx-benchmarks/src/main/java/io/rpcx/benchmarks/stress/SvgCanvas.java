package io.rpcx.benchmarks.stress;

import java.awt.Color;
import java.util.Locale;

/** Builds a standalone SVG document, for inlining in HTML. Not thread-safe. */
final class SvgCanvas implements Canvas {
  private final StringBuilder svg = new StringBuilder();

  SvgCanvas(int width, int height, String title) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d"
                + " %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" role=\"img\">\n"
                + "<title>%s</title>\n",
            width,
            height,
            width,
            height,
            escape(title)));
    rect(0, 0, width, height, Color.WHITE);
  }

  @Override
  public void rect(double x, double y, double width, double height, Color fill) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
            x,
            y,
            width,
            height,
            hex(fill)));
  }

  @Override
  public void line(double x1, double y1, double x2, double y2, Color stroke, double width) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
                + " stroke-width=\"%.1f\"/>\n",
            x1,
            y1,
            x2,
            y2,
            hex(stroke),
            width));
  }

  @Override
  public void text(
      double x,
      double y,
      String text,
      int size,
      Anchor anchor,
      boolean bold,
      Color color,
      boolean vertical) {
    String anchorName =
        anchor == Anchor.START ? "start" : anchor == Anchor.MIDDLE ? "middle" : "end";
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\""
                + " fill=\"%s\"%s%s>%s</text>\n",
            x,
            y,
            size,
            anchorName,
            hex(color),
            bold ? " font-weight=\"bold\"" : "",
            vertical
                ? String.format(Locale.ROOT, " transform=\"rotate(-90 %.1f %.1f)\"", x, y)
                : "",
            escape(text)));
  }

  /** The finished document. */
  String toSvg() {
    return svg + "</svg>\n";
  }

  private static String hex(Color c) {
    return String.format("#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
  }

  /** Escapes text for XML content and attributes. */
  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
