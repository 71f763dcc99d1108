package io.rpcx.benchmarks.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class ChartsTest {
  private static final BarChart CHART =
      new BarChart(
          "grpc: mean TPS <&>",
          "client threads",
          "TPS",
          List.of("10", "110", "210"),
          List.of(
              new BarChart.Series("10 requests", new double[] {1200, 2400, Double.NaN}),
              new BarChart.Series("210 requests", new double[] {1500, 2600, 3100})));

  @Test
  void svgIsWellFormedWithOneBarPerValueAndACrossPerMissingOne() throws Exception {
    String svg = ChartPainter.svg(CHART);
    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    // Background, two legend swatches and five bars.
    assertEquals(1 + 2 + 5, doc.getElementsByTagName("rect").getLength());
    assertTrue(svg.contains(">grpc: mean TPS &lt;&amp;&gt;</text>"));
    assertTrue(svg.contains(">×</text>"));
    // 3100 at most: ticks every 1000 up to 4000.
    assertTrue(svg.contains(">4k</text>"), svg);
  }

  @Test
  void pngHasTheChartsSize(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("chart.png");
    ChartPainter.png(CHART, file);
    BufferedImage image = ImageIO.read(file.toFile());
    assertEquals(ChartPainter.WIDTH, image.getWidth());
    assertEquals(ChartPainter.HEIGHT, image.getHeight());
  }

  @Test
  void ticksAreRound() {
    assertEquals(500, ChartPainter.niceStep(420));
    assertEquals(0.25, ChartPainter.niceStep(0.21), 1e-12);
    assertEquals(2000, ChartPainter.niceStep(1200));
    assertEquals("0", ChartPainter.tickLabel(0, 2500));
    assertEquals("7.5k", ChartPainter.tickLabel(7500, 2500));
    assertEquals("1.2M", ChartPainter.tickLabel(1_200_000, 200_000));
    assertEquals("800k", ChartPainter.tickLabel(800_000, 200_000));
    assertEquals("1,250", ChartPainter.tickLabel(1250, 250));
    assertEquals("0.75", ChartPainter.tickLabel(0.75, 0.25));
  }
}
