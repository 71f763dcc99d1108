package io.rpcx.core.internal.codec.pojo;

import static io.rpcx.core.internal.codec.CodecTesting.roundTrip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.testpojo.OtherPackagePojo;
import java.lang.reflect.Field;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * POJO fields are read and written by generated subclasses of their kind where the JVM allows it,
 * and by reflection where it does not, with the same results either way.
 */
class GeneratedFieldsTest {

  static class Base {
    private String inherited;
  }

  /** Private fields of every generated kind, one of them declared by the superclass. */
  static final class EveryKind extends Base {
    private int count;
    private long id;
    private double amount;
    private float ratio;
    private boolean paid;
    private String name;
    private List<String> tags;
    private int[] scores;
  }

  /** Fields left to reflection. */
  static final class Fallbacks {
    private final int fixed;
    private short small;
    private char letter;
    private byte tiny;

    Fallbacks() {
      this(0);
    }

    Fallbacks(int fixed) {
      this.fixed = fixed;
    }
  }

  @Test
  void privateFieldsOfEveryKindAreGeneratedIncludingASuperclassField() {
    for (String name : List.of("count", "id", "amount", "ratio", "paid", "name", "tags", "scores")) {
      assertTrue(GeneratedFields.isGenerated(field(EveryKind.class, name)), name);
    }
    assertTrue(GeneratedFields.isGenerated(field(Base.class, "inherited")));
  }

  @Test
  void aPojoInAnotherPackageGetsGeneratedFieldsThatRoundTrip() throws Exception {
    for (String name : List.of("count", "id", "amount", "paid", "name", "tags", "photo")) {
      assertTrue(GeneratedFields.isGenerated(field(OtherPackagePojo.class, name)), name);
    }
    OtherPackagePojo pojo = OtherPackagePojo.sample();
    OtherPackagePojo decoded = (OtherPackagePojo) roundTrip(OtherPackagePojo.class, pojo);
    assertEquals(pojo.values(), decoded.values());
  }

  @Test
  void finalFieldsAndRarePrimitivesFallBackToReflection() {
    for (String name : List.of("fixed", "small", "letter", "tiny")) {
      assertFalse(GeneratedFields.isGenerated(field(Fallbacks.class, name)), name);
    }
  }

  @Test
  void aPojoOfEveryKindRoundTripsThroughGeneratedFields() throws Exception {
    EveryKind pojo = new EveryKind();
    ((Base) pojo).inherited = "base";
    pojo.count = -3;
    pojo.id = Long.MAX_VALUE;
    pojo.amount = 99.99;
    pojo.ratio = 1.5f;
    pojo.paid = true;
    pojo.name = "name é 中 🙂";
    pojo.tags = List.of("x", "y");
    pojo.scores = new int[] {1, 2, 3};

    EveryKind decoded = (EveryKind) roundTrip(EveryKind.class, pojo);

    assertEquals("base", ((Base) decoded).inherited);
    assertEquals(-3, decoded.count);
    assertEquals(Long.MAX_VALUE, decoded.id);
    assertEquals(99.99, decoded.amount);
    assertEquals(1.5f, decoded.ratio);
    assertTrue(decoded.paid);
    assertEquals("name é 中 🙂", decoded.name);
    assertEquals(List.of("x", "y"), decoded.tags);
    assertArrayEquals(new int[] {1, 2, 3}, decoded.scores);
  }

  @Test
  void absentFieldsAreSetToZeroAndNullThroughGeneratedFields() throws Exception {
    EveryKind pojo = new EveryKind();
    EveryKind decoded = (EveryKind) roundTrip(EveryKind.class, pojo);
    assertEquals(0, decoded.count);
    assertFalse(decoded.paid);
    assertNull(decoded.name);
    assertNull(decoded.tags);

    EveryKind target = new EveryKind();
    target.count = 9;
    target.id = 9;
    target.amount = 9;
    target.ratio = 9;
    target.paid = true;
    target.name = "x";
    target.tags = List.of();
    for (String name : List.of("count", "id", "amount", "ratio", "paid", "name", "tags")) {
      field(EveryKind.class, name).setAbsent(target);
    }
    assertEquals(0, target.count);
    assertEquals(0, target.id);
    assertEquals(0.0, target.amount);
    assertEquals(0.0f, target.ratio);
    assertFalse(target.paid);
    assertNull(target.name);
    assertNull(target.tags);
  }

  @Test
  void reflectiveFieldsRoundTrip() throws Exception {
    Fallbacks pojo = new Fallbacks(42);
    pojo.small = -7;
    pojo.letter = 'ß';
    pojo.tiny = 5;

    Fallbacks decoded = (Fallbacks) roundTrip(Fallbacks.class, pojo);

    assertEquals(42, decoded.fixed);
    assertEquals(-7, decoded.small);
    assertEquals('ß', decoded.letter);
    assertEquals(5, decoded.tiny);
  }

  @Test
  void aValueOfTheWrongTypeIsRefused() {
    PojoField tags = field(EveryKind.class, "tags");
    assertThrows(ClassCastException.class, () -> tags.set(new EveryKind(), Integer.valueOf(1)));
    PojoField reflective =
        PojoField.reflective(accessible(EveryKind.class, "tags"), 1, tags.codec());
    CodecException e =
        assertThrows(CodecException.class, () -> reflective.set(new EveryKind(), 1));
    assertTrue(e.getMessage().startsWith("cannot access field 'tags'"), e.getMessage());
  }

  private static PojoField field(Class<?> type, String name) {
    Field field = accessible(type, name);
    return PojoField.forField(field, 1, StandardCodecs.registry().codecFor(field.getGenericType()));
  }

  private static Field accessible(Class<?> type, String name) {
    try {
      Field field = type.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (NoSuchFieldException e) {
      throw new AssertionError(e);
    }
  }
}
