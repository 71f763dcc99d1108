package io.rpcx.core.internal.codec.pojo;

import static io.rpcx.core.internal.codec.CodecTesting.decode;
import static io.rpcx.core.internal.codec.CodecTesting.encode;
import static io.rpcx.core.internal.codec.CodecTesting.roundTrip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.testpojo.OtherPackagePojo;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A POJO class is created, written and read by one generated accessor where the JVM allows it,
 * with the same bytes and values as going field by field.
 */
class GeneratedAccessorsTest {

  static class Base {
    private String inherited;
    private int inheritedCount;
  }

  /** Every kind of field: direct ones, a final one, rare primitives and inherited ones. */
  static final class EveryKind extends Base {
    private int count;
    private long id;
    private double amount;
    private float ratio;
    private boolean paid;
    private String name;
    private List<String> tags;
    private int[] scores;
    private Integer boxed;
    private Optional<String> note;
    private final long fixed;
    private short small;
    private char letter;
    private byte tiny;
    private EveryKind child;

    EveryKind() {
      this(0);
    }

    EveryKind(long fixed) {
      this.fixed = fixed;
    }
  }

  /** A constructor that gives every field a default the sender's null or zero must replace. */
  static final class Defaults {
    private int count = 7;
    private long id = 7;
    private double amount = 7;
    private float ratio = 7;
    private boolean paid = true;
    private String name = "default";
    private List<String> tags = new ArrayList<>(List.of("default"));
    private Optional<String> note = Optional.of("default");
    private short small = 7;
    private final int fixed;

    Defaults() {
      this(7);
    }

    Defaults(int fixed) {
      this.fixed = fixed;
    }
  }

  static final class Throwing {
    static volatile boolean refuse;
    private int count = 1;

    Throwing() {
      if (refuse) {
        throw new IllegalStateException("constructor refuses");
      }
    }
  }

  /** Components of every kind, in another order than by name. */
  record Shipment(
      String name, long id, int count, double weight, float ratio, boolean fragile,
      List<String> tags, short small, char letter, Optional<String> note, int[] sizes) {}

  @Test
  void classesAndRecordsGetAnAccessor() {
    assertTrue(pojoCodec(EveryKind.class).hasAccessor());
    assertTrue(pojoCodec(OtherPackagePojo.class).hasAccessor());
    assertTrue(pojoCodec(Shipment.class).hasAccessor());
  }

  @Test
  void aRecordOfEveryKindRoundTripsAndAbsentComponentsAreZeroNullOrEmpty() throws Exception {
    Shipment full =
        new Shipment("crate", 1L << 40, 3, 2.5, 0.5f, true, List.of("a"), (short) -2, 'q',
            Optional.of("n"), new int[] {4, 5});
    Shipment decoded = (Shipment) roundTrip(Shipment.class, full);
    assertEquals(
        List.of("crate", 1L << 40, 3, 2.5, 0.5f, true, List.of("a"), (short) -2, 'q',
            Optional.of("n")),
        List.of(decoded.name(), decoded.id(), decoded.count(), decoded.weight(), decoded.ratio(),
            decoded.fragile(), decoded.tags(), decoded.small(), decoded.letter(), decoded.note()));
    assertArrayEquals(new int[] {4, 5}, decoded.sizes());

    Shipment empty =
        (Shipment)
            roundTrip(
                Shipment.class,
                new Shipment(null, 0, 0, 0, 0, false, null, (short) 0, (char) 0,
                    Optional.empty(), null));
    assertEquals(
        new Shipment(null, 0, 0, 0, 0, false, null, (short) 0, (char) 0, Optional.empty(), null),
        empty);
  }

  /** A record whose constructor refuses values once told to. */
  record Guarded(int count) {
    static volatile boolean refuse;

    Guarded {
      if (refuse) {
        throw new IllegalArgumentException("count refused: " + count);
      }
    }
  }

  @Test
  void aRecordConstructorThatRefusesTheValuesFailsTheDecodingNamingTheRecord() {
    CodecRegistry registry = StandardCodecs.registry();
    byte[] bytes = encode(registry, Guarded.class, new Guarded(3));
    Guarded.refuse = true;
    try {
      CodecException e =
          assertThrows(CodecException.class, () -> decode(registry, Guarded.class, bytes, null));
      assertEquals(
          "the constructor of " + Guarded.class.getName()
              + " threw java.lang.IllegalArgumentException: count refused: 3",
          e.getMessage());
    } finally {
      Guarded.refuse = false;
    }
  }

  @Test
  void everyKindOfFieldRoundTrips() throws Exception {
    EveryKind pojo = sample();

    EveryKind decoded = (EveryKind) roundTrip(EveryKind.class, pojo);

    assertEquals("base", ((Base) decoded).inherited);
    assertEquals(11, ((Base) decoded).inheritedCount);
    assertEquals(-3, decoded.count);
    assertEquals(Long.MAX_VALUE, decoded.id);
    assertEquals(99.99, decoded.amount);
    assertEquals(1.5f, decoded.ratio);
    assertTrue(decoded.paid);
    assertEquals("name é 中 🙂", decoded.name);
    assertEquals(List.of("x", "y"), decoded.tags);
    assertArrayEquals(new int[] {1, 2, 3}, decoded.scores);
    assertEquals(0, decoded.boxed);
    assertEquals(Optional.of("note"), decoded.note);
    assertEquals(42, decoded.fixed);
    assertEquals(-7, decoded.small);
    assertEquals('ß', decoded.letter);
    assertEquals(5, decoded.tiny);
    assertEquals(-1, decoded.child.count);
    assertNull(decoded.child.child);
  }

  @Test
  void theAccessorWritesTheBytesTheFieldsWouldWriteOneByOne() throws Exception {
    assertSameBytesAsFieldByField(EveryKind.class, sample());
    assertSameBytesAsFieldByField(
        Shipment.class,
        new Shipment("crate", 7, 0, 2.5, 0, true, List.of("a"), (short) 9, 'q', Optional.empty(),
            new int[] {4}));
  }

  private static void assertSameBytesAsFieldByField(Class<?> type, Object value)
      throws IOException {
    PojoCodec<?> codec = pojoCodec(type);
    assertTrue(codec.hasAccessor());
    ByteArrayProtoWriter fieldByField = new ByteArrayProtoWriter();
    fieldByField.enter(type.getSimpleName());
    for (int i = 0; i < codec.fieldCount(); i++) {
      codec.field(i).write(fieldByField, value);
    }
    fieldByField.exit();

    ByteArrayProtoWriter generated = new ByteArrayProtoWriter();
    @SuppressWarnings("unchecked")
    PojoCodec<Object> objects = (PojoCodec<Object>) codec;
    objects.writePayload(generated, value);

    assertArrayEquals(fieldByField.toByteArray(), generated.toByteArray());
  }

  @Test
  void nullAndZeroFromTheSenderReplaceTheConstructorsDefaults() throws Exception {
    Defaults sent = new Defaults(0);
    sent.count = 0;
    sent.id = 0;
    sent.amount = 0;
    sent.ratio = 0;
    sent.paid = false;
    sent.name = null;
    sent.tags = null;
    sent.note = Optional.empty();
    sent.small = 0;

    Defaults decoded = (Defaults) roundTrip(Defaults.class, sent);

    assertEquals(0, decoded.count);
    assertEquals(0, decoded.id);
    assertEquals(0.0, decoded.amount);
    assertEquals(0.0f, decoded.ratio);
    assertFalse(decoded.paid);
    assertNull(decoded.name);
    assertNull(decoded.tags);
    assertEquals(Optional.empty(), decoded.note);
    assertEquals(0, decoded.small);
    assertEquals(0, decoded.fixed);
  }

  @Test
  void aConstructorThatThrowsFailsTheDecodingNamingTheClass() {
    CodecRegistry registry = StandardCodecs.registry();
    byte[] bytes = encode(registry, Throwing.class, new Throwing());
    Throwing.refuse = true;
    try {
      CodecException e =
          assertThrows(CodecException.class, () -> decode(registry, Throwing.class, bytes, null));
      assertEquals(
          "the constructor of " + Throwing.class.getName()
              + " threw java.lang.IllegalStateException: constructor refuses",
          e.getMessage());
    } finally {
      Throwing.refuse = false;
    }
  }

  @Test
  void aPojoInAnotherPackageRoundTripsThroughItsAccessorWithValuesAndWithout() throws Exception {
    for (OtherPackagePojo pojo : List.of(OtherPackagePojo.sample(), OtherPackagePojo.empty())) {
      OtherPackagePojo decoded = (OtherPackagePojo) roundTrip(OtherPackagePojo.class, pojo);
      assertEquals(pojo.values(), decoded.values());
    }
  }

  @Test
  void aPojoOfAnotherClassLoaderIsCarriedFieldByField() throws Exception {
    // As a child loader of an application server or a development-time restart loader would
    // load it: the JVM grants no full privilege on it, so no accessor, and the codec still works.
    URL testClasses = OtherPackagePojo.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {testClasses}, ClassLoader.getPlatformClassLoader())) {
      Class<?> type = loader.loadClass(OtherPackagePojo.class.getName());
      assertTrue(type != OtherPackagePojo.class);
      assertFalse(pojoCodec(type).hasAccessor());
      for (String factory : List.of("sample", "empty")) {
        Object pojo = type.getMethod(factory).invoke(null);
        Object decoded = roundTrip(type, pojo);
        Method values = type.getMethod("values");
        assertEquals(values.invoke(pojo), values.invoke(decoded), factory);
      }
    }
  }

  @Test
  void theShapesOfTheCodecTestsGetAccessorsUpTo64Fields() {
    for (Class<?> type :
        List.of(PojoCodecTest.Order.class, PojoCodecTest.Node.class,
            PojoCodecTest.Exactly64.class, PojoCodecTest.WithDefaults.class,
            io.rpcx.core.internal.codec.pojo.v1.Customer.class)) {
      assertTrue(pojoCodec(type).hasAccessor(), type.getName());
    }
    assertFalse(pojoCodec(PojoCodecTest.Wide.class).hasAccessor());
  }

  /** A record whose accessor methods redact and check what the fields hold. */
  record Credentials(String user, String password) {
    @Override
    public String password() {
      return "***";
    }

    @Override
    public String user() {
      if (user.isEmpty()) {
        throw new IllegalStateException("no user");
      }
      return user;
    }
  }

  @Test
  void aRecordIsWrittenThroughItsAccessorMethodsNotItsFields() throws Exception {
    Credentials decoded =
        (Credentials) roundTrip(Credentials.class, new Credentials("ada", "secret"));
    assertEquals("ada", decoded.user);
    assertEquals("***", decoded.password);

    CodecException e =
        assertThrows(
            CodecException.class,
            () -> encodeOrThrow(Credentials.class, new Credentials("", "secret")));
    assertEquals(
        "the accessor method Credentials.user() of record " + Credentials.class.getName()
            + " threw java.lang.IllegalStateException: no user",
        e.getMessage());
  }

  private static void encodeOrThrow(Class<?> type, Object value) throws IOException {
    @SuppressWarnings("unchecked")
    PojoCodec<Object> codec = (PojoCodec<Object>) pojoCodec(type);
    codec.writePayload(new ByteArrayProtoWriter(), value);
  }

  private static EveryKind sample() {
    EveryKind pojo = new EveryKind(42);
    ((Base) pojo).inherited = "base";
    ((Base) pojo).inheritedCount = 11;
    pojo.count = -3;
    pojo.id = Long.MAX_VALUE;
    pojo.amount = 99.99;
    pojo.ratio = 1.5f;
    pojo.paid = true;
    pojo.name = "name é 中 🙂";
    pojo.tags = List.of("x", "y");
    pojo.scores = new int[] {1, 2, 3};
    pojo.boxed = 0;
    pojo.note = Optional.of("note");
    pojo.small = -7;
    pojo.letter = 'ß';
    pojo.tiny = 5;
    pojo.child = new EveryKind();
    pojo.child.count = -1;
    return pojo;
  }

  private static PojoCodec<?> pojoCodec(Class<?> type) {
    return (PojoCodec<?>) StandardCodecs.registry().codecFor(type);
  }
}
