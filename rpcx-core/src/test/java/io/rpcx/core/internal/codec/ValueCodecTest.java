package io.rpcx.core.internal.codec;

import static io.rpcx.core.internal.codec.CodecTesting.encode;
import static io.rpcx.core.internal.codec.CodecTesting.roundTrip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.BoolValue;
import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.DoubleValue;
import com.google.protobuf.Int32Value;
import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import com.google.protobuf.Timestamp;
import io.rpcx.core.internal.model.StandardCodecs;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Date;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every supported kind of value survives encoding and decoding, in protobuf's own layouts. */
class ValueCodecTest {

  enum Color {
    RED,
    GREEN
  }

  // Declared types for generic parameters, taken from these fields.
  List<String> listOfStrings;
  LinkedList<Integer> linkedListOfInts;
  Set<Long> setOfLongs;
  SortedSet<String> sortedSetOfStrings;
  Map<String, Integer> mapOfInts;
  SortedMap<Integer, String> sortedMapOfStrings;
  Optional<String> optionalString;
  Optional<byte[]> optionalBytes;
  List<List<Integer>> listOfLists;
  List<List<String>> listOfStringLists;
  Map<String, List<Color>> mapOfEnumLists;
  List<Timestamp> listOfMessages;
  List<String>[] arrayOfLists;

  static Type declared(String field) throws NoSuchFieldException {
    return ValueCodecTest.class.getDeclaredField(field).getGenericType();
  }

  @Test
  void scalarsRoundTrip() throws Exception {
    assertEquals(42, roundTrip(int.class, 42));
    assertEquals(-7, roundTrip(Integer.class, -7));
    assertEquals(Long.MIN_VALUE, roundTrip(long.class, Long.MIN_VALUE));
    assertEquals(true, roundTrip(boolean.class, true));
    assertEquals((short) -300, roundTrip(short.class, (short) -300));
    assertEquals((byte) 100, roundTrip(Byte.class, (byte) 100));
    assertEquals('\u263A', roundTrip(char.class, '\u263A'));
    assertEquals(1.5f, roundTrip(float.class, 1.5f));
    assertEquals(Math.PI, roundTrip(Double.class, Math.PI));
    assertEquals("h\u00e9llo \uD83D\uDE00", roundTrip(String.class, "h\u00e9llo \uD83D\uDE00"));
    assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) roundTrip(byte[].class, new byte[] {1, 2, 3}));
    assertEquals(Color.GREEN, roundTrip(Color.class, Color.GREEN));
  }

  @Test
  void scalarsUseTheLayoutOfProtobufWrapperTypes() throws Exception {
    CodecRegistry codecs = StandardCodecs.registry();
    assertArrayEquals(
        Int32Value.of(42).toByteArray(), encode(codecs, int.class, 42));
    assertArrayEquals(
        Int64Value.of(-5).toByteArray(), encode(codecs, long.class, -5L));
    assertArrayEquals(BoolValue.of(true).toByteArray(), encode(codecs, boolean.class, true));
    assertArrayEquals(DoubleValue.of(2.5).toByteArray(), encode(codecs, double.class, 2.5));
    assertArrayEquals(StringValue.of("abc").toByteArray(), encode(codecs, String.class, "abc"));
    assertArrayEquals(
        BytesValue.of(ByteString.copyFrom(new byte[] {9})).toByteArray(),
        encode(codecs, byte[].class, new byte[] {9}));
    assertEquals(
        Int32Value.of(7).getValue(),
        Int32Value.parseFrom(encode(codecs, Integer.class, 7)).getValue());
  }

  @Test
  void onlyValuesThatAreOneRunOfBytesAreBulkBytes() throws Exception {
    // A received byte[] or ByteBuffer is decoded where it lies; everything else from a heap copy.
    CodecRegistry codecs = StandardCodecs.registry();
    assertTrue(codecs.codecFor(byte[].class).isBulkBytes());
    assertTrue(codecs.codecFor(ByteBuffer.class).isBulkBytes());
    assertTrue(codecs.codecFor(declared("optionalBytes")).isBulkBytes());
    assertTrue(new RawValueCodec("string").isBulkBytes(), "a raw length-delimited value");
    assertFalse(new RawValueCodec("int64").isBulkBytes(), "a raw varint");
    Type[] others = {
      String.class, int.class, Color.class, declared("listOfStrings"), Timestamp.class
    };
    for (Type type : others) {
      assertFalse(codecs.codecFor(type).isBulkBytes(), type.getTypeName());
    }
  }

  @Test
  void nullIsAnEmptyMessageAndStaysDistinctFromEmptyValues() throws Exception {
    CodecRegistry codecs = StandardCodecs.registry();
    assertEquals(0, encode(codecs, String.class, null).length);
    assertNull(roundTrip(String.class, null));
    assertEquals("", roundTrip(String.class, ""));
    assertNull(roundTrip(declared("listOfStrings"), null));
    assertEquals(List.of(), roundTrip(declared("listOfStrings"), List.of()));
    assertEquals(0, roundTrip(int.class, 0));
    assertNull(roundTrip(Integer.class, null));
  }

  @Test
  void protobufMessagesAreEncodedNatively() throws Exception {
    Timestamp timestamp = Timestamp.newBuilder().setSeconds(1234).setNanos(5).build();
    assertEquals(timestamp, roundTrip(Timestamp.class, timestamp));
    CodecRegistry codecs = StandardCodecs.registry();
    byte[] bytes = encode(codecs, Timestamp.class, timestamp);
    assertEquals(ByteString.copyFrom(timestamp.toByteArray()), ByteString.copyFrom(bytes, 2, bytes.length - 2));
  }

  @Test
  void javaTimeAndNumbersRoundTrip() throws Exception {
    Instant instant = Instant.parse("2024-02-29T12:34:56.789012345Z");
    assertEquals(instant, roundTrip(Instant.class, instant));
    assertEquals(Instant.parse("1960-01-01T00:00:00.5Z"), roundTrip(Instant.class, Instant.parse("1960-01-01T00:00:00.5Z")));
    assertEquals(new Date(-1234567L), roundTrip(Date.class, new Date(-1234567L)));
    assertEquals(Duration.ofSeconds(-3, 7), roundTrip(Duration.class, Duration.ofSeconds(-3, 7)));
    assertEquals(LocalDate.of(2024, 2, 29), roundTrip(LocalDate.class, LocalDate.of(2024, 2, 29)));
    LocalDateTime dateTime = LocalDateTime.of(1999, 12, 31, 23, 59, 58, 999_999_999);
    assertEquals(dateTime, roundTrip(LocalDateTime.class, dateTime));
    assertEquals(new BigDecimal("-12345.6700"), roundTrip(BigDecimal.class, new BigDecimal("-12345.6700")));
    assertEquals(new BigDecimal("1E+3"), roundTrip(BigDecimal.class, new BigDecimal("1E+3")));
    BigInteger big = new BigInteger("-987654321098765432109876543210");
    assertEquals(big, roundTrip(BigInteger.class, big));
    UUID uuid = UUID.randomUUID();
    assertEquals(uuid, roundTrip(UUID.class, uuid));
    ByteBuffer buffer = ByteBuffer.wrap(new byte[] {0, 1, 2, 3, 4}).position(1);
    assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), roundTrip(ByteBuffer.class, buffer));
    assertEquals(1, buffer.position(), "encoding leaves the buffer's position alone");
  }

  @Test
  void instantsUseTheLayoutOfProtobufTimestamp() throws Exception {
    Instant instant = Instant.ofEpochSecond(1_700_000_000L, 42);
    byte[] bytes = encode(StandardCodecs.registry(), Instant.class, instant);
    Timestamp parsed = Timestamp.parseFrom(ByteString.copyFrom(bytes, 2, bytes.length - 2));
    assertEquals(1_700_000_000L, parsed.getSeconds());
    assertEquals(42, parsed.getNanos());
  }

  @Test
  void collectionsMapsAndArraysRoundTrip() throws Exception {
    assertEquals(List.of("a", "b"), roundTrip(declared("listOfStrings"), List.of("a", "b")));
    Object linked = roundTrip(declared("linkedListOfInts"), new LinkedList<>(List.of(3, 1, 2)));
    assertInstanceOf(LinkedList.class, linked);
    assertEquals(List.of(3, 1, 2), linked);
    assertEquals(Set.of(1L, 2L), roundTrip(declared("setOfLongs"), new HashSet<>(Set.of(1L, 2L))));
    Object sorted = roundTrip(declared("sortedSetOfStrings"), new TreeSet<>(Set.of("b", "a")));
    assertEquals(new TreeSet<>(Set.of("a", "b")), sorted);
    Map<String, Integer> map = new LinkedHashMap<>();
    map.put("one", 1);
    map.put("two", 2);
    assertEquals(map, roundTrip(declared("mapOfInts"), map));
    assertInstanceOf(TreeMap.class, roundTrip(declared("sortedMapOfStrings"), new TreeMap<>(Map.of(2, "b"))));
    assertEquals(Optional.of("x"), roundTrip(declared("optionalString"), Optional.of("x")));
    assertEquals(Optional.empty(), roundTrip(declared("optionalString"), Optional.empty()));
    List<List<Integer>> nested = List.of(List.of(1, 2), List.of(), List.of(3));
    assertEquals(nested, roundTrip(declared("listOfLists"), nested));
    Map<String, List<Color>> enums = Map.of("k", List.of(Color.RED, Color.GREEN));
    assertEquals(enums, roundTrip(declared("mapOfEnumLists"), enums));
    List<Timestamp> messages = List.of(Timestamp.newBuilder().setSeconds(1).build(), Timestamp.getDefaultInstance());
    assertEquals(messages, roundTrip(declared("listOfMessages"), messages));
    assertArrayEquals(new int[] {1, -2, 300}, (int[]) roundTrip(int[].class, new int[] {1, -2, 300}));
    assertArrayEquals(new long[] {Long.MAX_VALUE, 0}, (long[]) roundTrip(long[].class, new long[] {Long.MAX_VALUE, 0}));
    assertArrayEquals(new double[] {0.5, -1}, (double[]) roundTrip(double[].class, new double[] {0.5, -1}));
    assertArrayEquals(new float[] {0.25f}, (float[]) roundTrip(float[].class, new float[] {0.25f}));
    assertArrayEquals(new boolean[] {true, false, true}, (boolean[]) roundTrip(boolean[].class, new boolean[] {true, false, true}));
    assertArrayEquals(new short[] {-1, 2}, (short[]) roundTrip(short[].class, new short[] {-1, 2}));
    assertArrayEquals(new char[] {'x', '\u00e9'}, (char[]) roundTrip(char[].class, new char[] {'x', '\u00e9'}));
    assertArrayEquals(new String[] {"a", null, "c"}, (String[]) roundTrip(String[].class, new String[] {"a", null, "c"}));
    assertArrayEquals(new int[0], (int[]) roundTrip(int[].class, new int[0]));
  }

  @Test
  void nullElementsKeepTheirPlaces() throws Exception {
    List<String> withNulls = Arrays.asList(null, "a", null, null, "b", null);
    assertEquals(withNulls, roundTrip(declared("listOfStrings"), withNulls));
    List<Integer> packedWithNulls = Arrays.asList(1, null, 3);
    Type listOfIntegers = ValueCodecTest.class.getDeclaredField("linkedListOfInts").getGenericType();
    assertEquals(packedWithNulls, roundTrip(listOfIntegers, new LinkedList<>(packedWithNulls)));
    Map<String, Integer> nullValue = new LinkedHashMap<>();
    nullValue.put("k", null);
    nullValue.put(null, 3);
    assertEquals(nullValue, roundTrip(declared("mapOfInts"), nullValue));
  }

  @Test
  void arraysAndListsShareTheirWireFormat() throws Exception {
    CodecRegistry codecs = StandardCodecs.registry();
    assertArrayEquals(
        encode(codecs, declared("linkedListOfInts"), new LinkedList<>(List.of(5, 6))),
        encode(codecs, int[].class, new int[] {5, 6}));
    assertEquals(
        codecs.codecFor(int[].class).typeName(),
        codecs.codecFor(declared("linkedListOfInts")).typeName());
  }

  @Test
  void typeDescriptorsNameTheWireShape() throws Exception {
    CodecRegistry codecs = StandardCodecs.registry();
    assertEquals("int32", codecs.codecFor(int.class).typeName());
    assertEquals("string", codecs.codecFor(String.class).typeName());
    assertEquals("list<string>", codecs.codecFor(declared("listOfStrings")).typeName());
    assertEquals("map<string,int32>", codecs.codecFor(declared("mapOfInts")).typeName());
    assertEquals("string", codecs.codecFor(declared("optionalString")).typeName());
    assertEquals("Color", codecs.codecFor(Color.class).typeName());
    assertEquals("google.protobuf.Timestamp", codecs.codecFor(Timestamp.class).typeName());
    assertEquals("list<list<string>>", codecs.codecFor(declared("arrayOfLists")).typeName());
  }

  @Test
  void malformedInputFailsWithAClearError() {
    CodecRegistry codecs = StandardCodecs.registry();
    CodecException unknownEnum =
        assertThrows(
            CodecException.class,
            () -> CodecTesting.decode(codecs, Color.class, StringValue.of("BLUE").toByteArray(), null));
    assertEquals(
        "unknown constant 'BLUE' of enum io.rpcx.core.internal.codec.ValueCodecTest$Color",
        unknownEnum.getMessage());
    CodecException wrongType =
        assertThrows(
            CodecException.class,
            () -> CodecTesting.decode(codecs, String.class, Int32Value.of(3).toByteArray(), null));
    assertEquals("field 1 holds wire type VARINT but string needs LEN", wrongType.getMessage());
    CodecException outOfRange =
        assertThrows(
            CodecException.class,
            () -> CodecTesting.decode(codecs, short.class, Int32Value.of(70000).toByteArray(), null));
    assertEquals("value 70000 is out of range for short", outOfRange.getMessage());
    byte[] truncated = Arrays.copyOf(StringValue.of("hello").toByteArray(), 4);
    assertThrows(java.io.IOException.class, () -> CodecTesting.decode(codecs, String.class, truncated, null));
  }

  @Test
  void nestingBeyondTheLimitIsRejected() throws Exception {
    CodecRegistry codecs = StandardCodecs.registry();
    Type type = declared("listOfLists");
    byte[] twoLevels = encode(codecs, type, List.of(List.of(1)));
    CodecException e =
        assertThrows(
            CodecException.class,
            () ->
                Values.read(
                    codecs.codecFor(type),
                    com.google.protobuf.CodedInputStream.newInstance(twoLevels),
                    new DecodeContext(1, null)));
    assertEquals("value nested deeper than 1 levels (at list<int32>)", e.getMessage());
  }

  @Test
  void unsupportedTypesAreRejectedWithTheReason() throws Exception {
    CodecRegistry codecs = StandardCodecs.registry();
    UnsupportedTypeException raw =
        assertThrows(UnsupportedTypeException.class, () -> codecs.codecFor(List.class));
    assertEquals(
        "unsupported type java.util.List: a raw List has no element type; declare it, e.g."
            + " List<String>",
        raw.getMessage());
    UnsupportedTypeException object =
        assertThrows(UnsupportedTypeException.class, () -> codecs.codecFor(Object.class));
    assertEquals(
        "unsupported type java.lang.Object: Object could hold any class, and RPCX never lets the"
            + " wire choose a class; declare a concrete type",
        object.getMessage());
  }

  @Test
  void lengthsThatShrinkOrGrowBetweenCallsAreStillWrittenExactly() throws Exception {
    // One codec, whose reserved length bytes follow the sizes it wrote before.
    CodecRegistry codecs = StandardCodecs.registry();
    Type type = declared("listOfStringLists");
    for (int size : new int[] {300_000, 3, 20_000, 0, 130, 1, 2_000_000, 50}) {
      List<List<String>> value = List.of(List.of("x".repeat(size)), List.of());
      byte[] bytes = encode(codecs, type, value);
      assertEquals(value, CodecTesting.decode(codecs, type, bytes, null));
    }
  }

  @Test
  void longValuesGetLongLengthsWhereverTheyAreNested() throws Exception {
    // Lengths of 128 bytes and more need a second varint byte: the writer moves the content.
    List<List<String>> nested = List.of(List.of("x".repeat(200), "y"), List.of("z".repeat(20_000)));
    assertEquals(nested, roundTrip(declared("listOfStringLists"), nested));
  }
}
