package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rpcx.testing.RpcxExtension;
import io.rpcx.testsuite.ValuesService.Color;
import io.rpcx.testsuite.proto.Point;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A call of an annotated interface travels to the server and back as if it were local. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CallPathTest {

  @RegisterExtension
  static final RpcxExtension rpcx =
      RpcxExtension.withServices(new EchoService.Impl(), new ValuesService.Impl());

  @Test
  void aRemoteCallReturnsTheServersResult() {
    assertEquals("hello", rpcx.create(EchoService.class).echo("hello"));
  }

  @Test
  void aLoneSurrogateBecomesAQuestionMarkAsEveryUtf8EncoderMakesIt() {
    // A protobuf string is UTF-8, which cannot hold half a surrogate pair (docs/VALUES.md).
    EchoService echo = rpcx.create(EchoService.class);
    assertEquals("a?b", echo.echo("a\uD800b"));
    assertEquals("?x", echo.echo("\uDC00x"));
    assertEquals("pair \uD83D\uDE00 kept", echo.echo("pair \uD83D\uDE00 kept"));
    String longText = "y".repeat(5000) + "\uD800";
    assertEquals("y".repeat(5000) + "?", echo.echo(longText));
  }

  @Test
  void methodsAreCalledByTheirPublishedNames() {
    assertEquals("HELLO", rpcx.create(EchoService.class).upperCase("hello"));
  }

  @Test
  void anAsynchronousMethodCompletesItsFuture() throws Exception {
    assertEquals(
        "later", rpcx.create(EchoService.class).echoAsync("later").get(5, TimeUnit.SECONDS));
  }

  @Test
  void primitivesAndTheirBoxesCrossTheWire() {
    ValuesService values = rpcx.create(ValuesService.class);
    assertEquals(Integer.MIN_VALUE, values.int32(Integer.MIN_VALUE));
    assertEquals(Long.MAX_VALUE, values.int64(Long.MAX_VALUE));
    assertEquals(true, values.bool(true));
    assertEquals((short) -12345, values.int16((short) -12345));
    assertEquals((byte) -128, values.int8((byte) -128));
    assertEquals('\u00df', values.character('\u00df'));
    assertEquals(-0.5f, values.real32(-0.5f));
    assertEquals(Double.MIN_VALUE, values.real64(Double.MIN_VALUE));
    assertEquals(0, values.int32(0));
    assertEquals(7, values.boxedInt(7));
    assertNull(values.boxedInt(null));
    assertNull(values.boxedLong(null));
    assertEquals(false, values.boxedBool(false));
    assertEquals('z', values.boxedChar('z'));
    assertEquals(Double.NaN, values.boxedDouble(Double.NaN));
  }

  @Test
  void stringsBytesEnumsAndProtobufMessagesCrossTheWire() {
    ValuesService values = rpcx.create(ValuesService.class);
    assertEquals("\u65e5\u672c\u8a9e \uD83D\uDE80", values.string("\u65e5\u672c\u8a9e \uD83D\uDE80"));
    assertEquals("", values.string(""));
    assertNull(values.string(null));
    assertArrayEquals(new byte[] {0, -1, 127}, values.bytes(new byte[] {0, -1, 127}));
    assertEquals(ByteBuffer.wrap(new byte[] {5, 6}), values.buffer(ByteBuffer.wrap(new byte[] {5, 6})));
    assertEquals(Color.BLUE, values.color(Color.BLUE));
    assertNull(values.color(null));
    Point point =
        Point.newBuilder()
            .setX(3)
            .setY(-4)
            .setLabel("p")
            .addNeighbours(Point.newBuilder().setX(1))
            .build();
    assertEquals(point, values.point(point));
  }

  @Test
  void containersCrossTheWire() {
    ValuesService values = rpcx.create(ValuesService.class);
    assertArrayEquals(new int[] {1, 2, 3}, values.ints(new int[] {1, 2, 3}));
    assertArrayEquals(new long[] {-1}, values.longs(new long[] {-1}));
    assertArrayEquals(new double[] {}, values.doubles(new double[] {}));
    assertArrayEquals(new String[] {"a", null}, values.strings(new String[] {"a", null}));
    assertEquals(List.of("x", "y"), values.list(List.of("x", "y")));
    assertEquals(Arrays.asList("x", null), values.list(Arrays.asList("x", null)));
    assertEquals(List.of(), values.list(List.of()));
    assertNull(values.list(null));
    assertEquals(Set.of(3, 1), values.set(new LinkedHashSet<>(List.of(3, 1))));
    assertEquals(Map.of("a", 1L), values.map(Map.of("a", 1L)));
    TreeMap<String, List<Color>> sorted = new TreeMap<>(Map.of("b", List.of(Color.RED), "a", List.of()));
    assertEquals(sorted, values.sortedMap(sorted));
    assertEquals(Optional.of("o"), values.optional(Optional.of("o")));
    assertEquals(Optional.empty(), values.optional(Optional.empty()));
    assertEquals(List.of(List.of(1), List.of(2, 3)), values.nested(List.of(List.of(1), List.of(2, 3))));
    List<Point> points = List.of(Point.newBuilder().setX(1).build(), Point.getDefaultInstance());
    assertEquals(points, values.points(points));
  }

  @Test
  void jdkValueTypesCrossTheWire() {
    ValuesService values = rpcx.create(ValuesService.class);
    Instant instant = Instant.parse("2030-01-02T03:04:05.000000006Z");
    assertEquals(instant, values.instant(instant));
    assertEquals(Duration.ofMillis(-1500), values.duration(Duration.ofMillis(-1500)));
    assertEquals(LocalDate.of(1970, 1, 1), values.date(LocalDate.of(1970, 1, 1)));
    LocalDateTime dateTime = LocalDateTime.of(2024, 2, 29, 23, 59, 59);
    assertEquals(dateTime, values.dateTime(dateTime));
    assertEquals(new BigDecimal("0.000100"), values.decimal(new BigDecimal("0.000100")));
    UUID uuid = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    assertEquals(uuid, values.uuid(uuid));
  }

  @Test
  void severalParametersArriveInOrder() {
    assertEquals(
        "a42-9trueGREEN", rpcx.create(ValuesService.class).concat("a", 42, -9, true, Color.GREEN));
  }

  @Test
  void aVoidMethodReturnsWhenTheServerIsDone() {
    rpcx.create(ValuesService.class).nothing();
  }
}
