package io.rpcx.core.internal.codec.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.UnsupportedTypeException;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.model.StandardCodecs;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Declared exceptions as values: their fields (their class's and superclasses' up to the JDK's)
 * encoded as a POJO's, and the constructor they are rebuilt through chosen at start-up, as
 * docs/VALUES.md, "Exceptions", lists; an exception that could not be rebuilt is refused, saying
 * what is missing.
 */
class ExceptionCodecTest {
  private final CodecRegistry codecs = StandardCodecs.registry();

  /** Two constructors named as its fields: the one that takes the message is preferred. */
  static class Named extends Exception {
    private static final long serialVersionUID = 1L;

    final String sku;
    final int count;

    Named(String sku, int count) {
      super("computed " + sku);
      this.sku = sku;
      this.count = count;
    }

    Named(String message, int count, String sku) {
      super(message);
      this.sku = sku;
      this.count = count;
    }
  }

  /** A superclass with a field of its own, which is carried too, first in declaration order. */
  static class Base extends Exception {
    private static final long serialVersionUID = 1L;

    final String region;

    Base(String message, String region) {
      super(message);
      this.region = region;
    }
  }

  /** Only its canonical constructor, under other names: region (its superclass's) first. */
  static class Canonical extends Base {
    private static final long serialVersionUID = 1L;

    final long limit;
    final Map<String, List<Integer>> usage;
    final transient Object notCarried = new Object();

    Canonical(String a, long b, Map<String, List<Integer>> c) {
      super("canonical " + a, a);
      this.limit = b;
      this.usage = c;
    }
  }

  /** No fields: its (String) constructor, which takes the message, is preferred. */
  static class NoFields extends Exception {
    private static final long serialVersionUID = 1L;

    NoFields() {
      super("default");
    }

    NoFields(String reason) {
      super(reason);
    }
  }

  /** Its constructor checks what it is given. */
  static class Checking extends Exception {
    private static final long serialVersionUID = 1L;

    final String sku;

    Checking(String sku) {
      this.sku = java.util.Objects.requireNonNull(sku, "sku");
    }
  }

  static class Unrebuildable extends Exception {
    private static final long serialVersionUID = 1L;

    final String sku;
    final int count;

    Unrebuildable(String sku) {
      this.sku = sku;
      this.count = 0;
    }
  }

  static class UncarriableField extends Exception {
    private static final long serialVersionUID = 1L;

    final Object payload;

    UncarriableField(Object payload) {
      this.payload = payload;
    }
  }

  abstract static class Abstract extends Exception {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void aConstructorNamedAsTheFieldsThatTakesTheMessageIsPreferred() throws IOException {
    Named rebuilt = roundTrip(new Named("the server's words", 3, "A-1"), "the server's words");
    assertEquals("A-1", rebuilt.sku);
    assertEquals(3, rebuilt.count);
    assertEquals("the server's words", rebuilt.getMessage());
  }

  @Test
  void theCanonicalConstructorTakesTheFieldsInDeclarationOrderSuperclassFirst()
      throws IOException {
    Map<String, List<Integer>> usage = Map.of("disk", List.of(1, 2, 3));
    Canonical rebuilt = roundTrip(new Canonical("eu", 1L << 33, usage), "ignored");
    assertEquals("eu", rebuilt.region);
    assertEquals(1L << 33, rebuilt.limit);
    assertEquals(usage, rebuilt.usage);
    assertEquals("canonical eu", rebuilt.getMessage(), "its constructor's, which takes none");
  }

  @Test
  void nullAndZeroFieldsArriveAsNullAndZero() throws IOException {
    Canonical rebuilt = roundTrip(new Canonical(null, 0, null), "");
    assertNull(rebuilt.region);
    assertEquals(0, rebuilt.limit);
    assertNull(rebuilt.usage);
  }

  @Test
  void anExceptionWithoutFieldsTakesTheMessage() throws IOException {
    assertEquals("sent", roundTrip(new NoFields("sent"), "sent").getMessage());
  }

  @Test
  void aJdkExceptionCarriesNoFieldAndTakesTheMessage() throws IOException {
    assertEquals("disk full", roundTrip(new IOException("disk full"), "disk full").getMessage());
  }

  @Test
  void aConstructorThatRefusesTheValuesFailsTheDecodingSayingSo() throws IOException {
    ValueCodec<Object> codec = codec(Checking.class);
    byte[] withNull = {0x0a, 0x00}; // the exception's message, with its field absent
    CodecException e = assertThrows(CodecException.class, () -> decode(codec, withNull, "m"));
    assertEquals(
        "the constructor of " + Checking.class.getName()
            + " threw java.lang.NullPointerException: sku",
        e.getMessage());
  }

  @Test
  void anExceptionNoConstructorRebuildsIsRefusedNamingWhatIsMissing() {
    UnsupportedTypeException missing =
        assertThrows(
            UnsupportedTypeException.class, () -> codecs.exceptionCodecFor(Unrebuildable.class));
    assertEquals(
        "unsupported type " + Unrebuildable.class.getName() + ": no constructor takes its fields"
            + " (sku, count) to rebuild it with on the receiving side ((String sku) leaves out"
            + " count); add one whose parameters are named as the fields (compiled with"
            + " -parameters), or one of their types in declaration order (String, int), either"
            + " optionally with a String message first; or make the fields it should not carry"
            + " transient",
        missing.getMessage());

    UnsupportedTypeException field =
        assertThrows(
            UnsupportedTypeException.class,
            () -> codecs.exceptionCodecFor(UncarriableField.class));
    assertTrue(
        field.getMessage().startsWith(
            "unsupported type java.lang.Object, field 'payload' of "
                + UncarriableField.class.getName() + ": Object could hold any class"),
        field.getMessage());

    UnsupportedTypeException abstractOne =
        assertThrows(
            UnsupportedTypeException.class, () -> codecs.exceptionCodecFor(Abstract.class));
    assertEquals(
        "unsupported type " + Abstract.class.getName() + ": an abstract exception cannot be"
            + " created on the receiving side; declare the concrete exceptions the method throws,"
            + " or make it sealed (its permitted subclasses are then carried)",
        abstractOne.getMessage());
  }

  @Test
  void anExceptionIsNamedOnTheWireByItsSimpleNameAndDescribedInSchemas() {
    ValueCodec<Object> codec = codec(Canonical.class);
    assertEquals("Canonical", codec.typeName());
    assertEquals(
        List.of("limit", "region", "usage"),
        ((PojoCodec<?>) codec).schema().fields().stream().map(f -> f.name()).toList());
  }

  @SuppressWarnings("unchecked")
  private ValueCodec<Object> codec(Class<?> type) {
    return (ValueCodec<Object>) codecs.exceptionCodecFor(type);
  }

  @SuppressWarnings("unchecked")
  private <T extends Throwable> T roundTrip(T exception, String message) throws IOException {
    ValueCodec<Object> codec = codec(exception.getClass());
    T rebuilt = (T) decode(codec, encode(codec, exception), message);
    assertInstanceOf(exception.getClass(), rebuilt);
    return rebuilt;
  }

  private static byte[] encode(ValueCodec<Object> codec, Object exception) throws IOException {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    Values.write(out, codec, exception);
    return out.toByteArray();
  }

  private static Object decode(ValueCodec<Object> codec, byte[] bytes, String message)
      throws IOException {
    return Values.read(
        codec,
        CodedInputStream.newInstance(bytes),
        DecodeContext.withDefaults().exceptionMessage(message));
  }
}
