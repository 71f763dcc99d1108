package io.rpcx.testsuite;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.testsuite.proto.Point;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.UUID;

/** Returns each kind of value it is given: every supported type crosses the real stack. */
@RPCXClient(name = "values")
public interface ValuesService {
  enum Color {
    RED,
    GREEN,
    BLUE
  }

  int int32(int value);

  long int64(long value);

  boolean bool(boolean value);

  short int16(short value);

  byte int8(byte value);

  char character(char value);

  float real32(float value);

  double real64(double value);

  Integer boxedInt(Integer value);

  Long boxedLong(Long value);

  Boolean boxedBool(Boolean value);

  Character boxedChar(Character value);

  Double boxedDouble(Double value);

  String string(String value);

  byte[] bytes(byte[] value);

  ByteBuffer buffer(ByteBuffer value);

  Color color(Color value);

  Point point(Point value);

  int[] ints(int[] value);

  long[] longs(long[] value);

  double[] doubles(double[] value);

  String[] strings(String[] value);

  List<String> list(List<String> value);

  Set<Integer> set(Set<Integer> value);

  Map<String, Long> map(Map<String, Long> value);

  SortedMap<String, List<Color>> sortedMap(SortedMap<String, List<Color>> value);

  Optional<String> optional(Optional<String> value);

  List<List<Integer>> nested(List<List<Integer>> value);

  List<Point> points(List<Point> value);

  Instant instant(Instant value);

  Duration duration(Duration value);

  LocalDate date(LocalDate value);

  LocalDateTime dateTime(LocalDateTime value);

  BigDecimal decimal(BigDecimal value);

  UUID uuid(UUID value);

  /** Several parameters of different types. */
  String concat(String text, int number, long big, boolean flag, Color color);

  /** No parameters and no result. */
  void nothing();

  /** The implementation: identity for every method. */
  @RPCXServer(name = "values")
  final class Impl implements ValuesService {
    public int int32(int value) { return value; }
    public long int64(long value) { return value; }
    public boolean bool(boolean value) { return value; }
    public short int16(short value) { return value; }
    public byte int8(byte value) { return value; }
    public char character(char value) { return value; }
    public float real32(float value) { return value; }
    public double real64(double value) { return value; }
    public Integer boxedInt(Integer value) { return value; }
    public Long boxedLong(Long value) { return value; }
    public Boolean boxedBool(Boolean value) { return value; }
    public Character boxedChar(Character value) { return value; }
    public Double boxedDouble(Double value) { return value; }
    public String string(String value) { return value; }
    public byte[] bytes(byte[] value) { return value; }
    public ByteBuffer buffer(ByteBuffer value) { return value; }
    public Color color(Color value) { return value; }
    public Point point(Point value) { return value; }
    public int[] ints(int[] value) { return value; }
    public long[] longs(long[] value) { return value; }
    public double[] doubles(double[] value) { return value; }
    public String[] strings(String[] value) { return value; }
    public List<String> list(List<String> value) { return value; }
    public Set<Integer> set(Set<Integer> value) { return value; }
    public Map<String, Long> map(Map<String, Long> value) { return value; }
    public SortedMap<String, List<Color>> sortedMap(SortedMap<String, List<Color>> value) { return value; }
    public Optional<String> optional(Optional<String> value) { return value; }
    public List<List<Integer>> nested(List<List<Integer>> value) { return value; }
    public List<Point> points(List<Point> value) { return value; }
    public Instant instant(Instant value) { return value; }
    public Duration duration(Duration value) { return value; }
    public LocalDate date(LocalDate value) { return value; }
    public LocalDateTime dateTime(LocalDateTime value) { return value; }
    public BigDecimal decimal(BigDecimal value) { return value; }
    public UUID uuid(UUID value) { return value; }

    public String concat(String text, int number, long big, boolean flag, Color color) {
      return text + number + big + flag + color;
    }

    public void nothing() {}
  }
}
