package io.rpcx.benchmarks.stress;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** Draws with Java2D on an image, written as PNG. Needs no display (headless). Not thread-safe. */
final class ImageCanvas implements Canvas {
  private final BufferedImage image;
  private final Graphics2D g;

  ImageCanvas(int width, int height) {
    image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    rect(0, 0, width, height, Color.WHITE);
  }

  @Override
  public void rect(double x, double y, double width, double height, Color fill) {
    g.setColor(fill);
    g.fill(new Rectangle2D.Double(x, y, width, height));
  }

  @Override
  public void line(double x1, double y1, double x2, double y2, Color stroke, double width) {
    g.setColor(stroke);
    g.setStroke(new BasicStroke((float) width));
    g.draw(new Line2D.Double(x1, y1, x2, y2));
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
    g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, size));
    g.setColor(color);
    FontMetrics metrics = g.getFontMetrics();
    int width = metrics.stringWidth(text);
    double shift = anchor == Anchor.START ? 0 : anchor == Anchor.MIDDLE ? width / 2.0 : width;
    AffineTransform saved = g.getTransform();
    g.translate(x, y);
    if (vertical) {
      g.rotate(-Math.PI / 2);
    }
    g.drawString(text, (float) -shift, 0f);
    g.setTransform(saved);
  }

  /** Writes the image as PNG and releases the graphics context. */
  void writePng(Path file) throws IOException {
    g.dispose();
    if (!ImageIO.write(image, "png", file.toFile())) {
      throw new IOException("no PNG writer available for " + file);
    }
  }
}
