package io.rpcx.core.internal.codec.pojo;

import static io.rpcx.core.internal.codec.CodecTesting.decode;
import static io.rpcx.core.internal.codec.CodecTesting.encode;
import static io.rpcx.core.internal.codec.CodecTesting.roundTrip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.Schemas;
import io.rpcx.core.internal.codec.TypeSchema;
import io.rpcx.core.internal.codec.UnsupportedTypeException;
import io.rpcx.core.internal.model.StandardCodecs;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** POJOs and records become protobuf messages, evolve safely, and are checked at start-up. */
class PojoCodecTest {

  enum Status {
    NEW,
    PAID
  }

  /** A JavaBean with private fields, getters and setters, nested collections and JDK types. */
  static final class Order {
    private String billNumber;
    private long orderId;
    private int quantity;
    private double amount;
    private boolean paid;
    private float discount;
    private short priority;
    private Status status;
    private BigDecimal total;
    private Instant createdAt;
    private LocalDate due;
    private List<Item> items;
    private Set<String> tags;
    private Map<String, String> attributes;
    private Optional<String> note = Optional.empty();
    private Timestamp protoTimestamp;
    private byte[] attachment;
    private Integer boxed;

    Order() {}

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Order)) {
        return false;
      }
      Order that = (Order) o;
      return Objects.equals(billNumber, that.billNumber) && orderId == that.orderId
          && quantity == that.quantity && amount == that.amount && paid == that.paid
          && discount == that.discount && priority == that.priority && status == that.status
          && Objects.equals(total, that.total) && Objects.equals(createdAt, that.createdAt)
          && Objects.equals(due, that.due) && Objects.equals(items, that.items)
          && Objects.equals(tags, that.tags) && Objects.equals(attributes, that.attributes)
          && Objects.equals(note, that.note) && Objects.equals(protoTimestamp, that.protoTimestamp)
          && java.util.Arrays.equals(attachment, that.attachment) && Objects.equals(boxed, that.boxed);
    }

    @Override
    public int hashCode() {
      return Objects.hash(billNumber, orderId);
    }
  }

  /** A record nested in a POJO. */
  record Item(String sku, int quantity, double unitPrice, Optional<String> comment) {}

  /** A recursive type: each node holds its children. */
  static final class Node {
    String name;
    List<Node> children = new ArrayList<>();
    Node next;
  }

  /** More fields than fit the 64-bit mask of fields read; two have non-zero defaults. */
  static final class Wide {
    private int f00, f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69;
    private int defaulted = 7;
    private String named = "default";
  }

  /** Exactly 64 fields: every bit of the mask of fields read, the last one with a default. */
  static final class Exactly64 {
    private int f00, f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62;
    private int zz = 5;
  }

  /** A class whose constructor gives fields defaults. */
  static final class WithDefaults {
    int count = 5;
    String label = "default";
    List<String> values = new ArrayList<>(List.of("x"));
  }

  static Order fullOrder() {
    Order order = new Order();
    order.billNumber = "B-2024-0001";
    order.orderId = 9_876_543_210L;
    order.quantity = 3;
    order.amount = 199.95;
    order.paid = true;
    order.discount = 0.1f;
    order.priority = -2;
    order.status = Status.PAID;
    order.total = new BigDecimal("599.85");
    order.createdAt = Instant.parse("2024-05-01T10:15:30.123Z");
    order.due = LocalDate.of(2024, 6, 1);
    order.items = List.of(
        new Item("SKU-1", 2, 10.5, Optional.of("gift")), new Item("SKU-2", 1, 0, Optional.empty()));
    order.tags = Set.of("vip", "fast");
    order.attributes = Map.of("channel", "web");
    order.note = Optional.of("leave at door");
    order.protoTimestamp = Timestamp.newBuilder().setSeconds(77).build();
    order.attachment = new byte[] {1, 2, 3};
    order.boxed = 0;
    return order;
  }

  @Test
  void aPojoWithNestedCollectionsRoundTrips() throws Exception {
    Order order = fullOrder();
    assertEquals(order, roundTrip(Order.class, order));
  }

  @Test
  void nullFieldsRoundTripAsNullAndZerosAsZero() throws Exception {
    Order empty = new Order();
    empty.note = null;
    Order decoded = (Order) roundTrip(Order.class, empty);
    assertNull(decoded.billNumber);
    assertNull(decoded.items);
    assertNull(decoded.boxed);
    assertEquals(0, decoded.quantity);
    assertEquals(Optional.empty(), decoded.note, "an absent Optional field reads as empty");
    assertEquals(2, encode(StandardCodecs.registry(), Order.class, empty).length,
        "an all-default POJO is an empty message inside the value wrapper");
  }

  @Test
  void constructorDefaultsDoNotLeakIntoValuesTheSenderSet() throws Exception {
    WithDefaults sent = new WithDefaults();
    sent.count = 0;
    sent.label = null;
    sent.values = null;
    WithDefaults received = (WithDefaults) roundTrip(WithDefaults.class, sent);
    assertEquals(0, received.count);
    assertNull(received.label);
    assertNull(received.values);
  }

  @Test
  void recursiveTypesRoundTrip() throws Exception {
    Node root = new Node();
    root.name = "root";
    Node child = new Node();
    child.name = "child";
    root.children.add(child);
    root.next = new Node();
    root.next.name = "sibling";
    Node decoded = (Node) roundTrip(Node.class, root);
    assertEquals("root", decoded.name);
    assertEquals("child", decoded.children.get(0).name);
    assertEquals("sibling", decoded.next.name);
    assertNull(decoded.next.next);
  }

  @Test
  void aCycleInTheObjectGraphFailsClearlyInsteadOfOverflowingTheStack() {
    Node node = new Node();
    node.name = "loop";
    node.next = node;
    Exception e = assertThrows(Exception.class, () -> encode(StandardCodecs.registry(), Node.class, node));
    Throwable cause = e.getCause() != null ? e.getCause() : e;
    assertEquals(
        "field 'next': value nested deeper than 64 levels at Node: does the object graph contain"
            + " a cycle?",
        cause.getMessage());
  }

  @Test
  void fieldsAreNumberedByNameNotByDeclarationOrder() throws Exception {
    PojoCodec<?> codec = (PojoCodec<?>) StandardCodecs.registry().codecFor(Item.class);
    assertEquals(
        "Item{1:comment string;2:quantity int32;3:sku string;4:unitPrice double;}",
        codec.schema().toString());
  }

  @Test
  void anOlderSenderIsReadByANewerReceiver() throws Exception {
    CodecRegistry sender = StandardCodecs.registry();
    CodecRegistry receiver = StandardCodecs.registry();
    byte[] bytes = encode(sender, io.rpcx.core.internal.codec.pojo.v1.Customer.class,
        new io.rpcx.core.internal.codec.pojo.v1.Customer(7, "Ada", "555-0100", 3));
    PeerSchemas announced = announced(sender, io.rpcx.core.internal.codec.pojo.v1.Customer.class);
    io.rpcx.core.internal.codec.pojo.v2.Customer read =
        (io.rpcx.core.internal.codec.pojo.v2.Customer)
            decode(receiver, io.rpcx.core.internal.codec.pojo.v2.Customer.class, bytes, announced);
    assertEquals(7, read.id);
    assertEquals("Ada", read.name);
    assertEquals(3, read.visits);
    assertNull(read.email, "a field the sender never had is left as constructed");
    assertEquals(List.of("new"), read.tags, "and keeps the receiver's default");
  }

  @Test
  void aNewerSenderIsReadByAnOlderReceiver() throws Exception {
    CodecRegistry sender = StandardCodecs.registry();
    CodecRegistry receiver = StandardCodecs.registry();
    io.rpcx.core.internal.codec.pojo.v2.Customer customer =
        new io.rpcx.core.internal.codec.pojo.v2.Customer(8, "Grace", "grace@example.com", 0);
    byte[] bytes = encode(sender, io.rpcx.core.internal.codec.pojo.v2.Customer.class, customer);
    PeerSchemas announced = announced(sender, io.rpcx.core.internal.codec.pojo.v2.Customer.class);
    io.rpcx.core.internal.codec.pojo.v1.Customer read =
        (io.rpcx.core.internal.codec.pojo.v1.Customer)
            decode(receiver, io.rpcx.core.internal.codec.pojo.v1.Customer.class, bytes, announced);
    assertEquals(8, read.id);
    assertEquals("Grace", read.name);
    assertEquals(0, read.visits);
    assertNull(read.fax, "unknown fields (email, tags) are skipped; the removed one stays unset");
  }

  @Test
  void aFieldWhoseTypeChangedIsReportedByName() throws Exception {
    CodecRegistry receiver = StandardCodecs.registry();
    PeerSchemas peer = new PeerSchemas();
    peer.put(new TypeSchema("Customer", List.of(new TypeSchema.Field("name", 1, "int64"))), 10);
    byte[] bytes = {0x0a, 0x02, 0x08, 0x05};
    CodecException e =
        assertThrows(
            CodecException.class,
            () -> decode(receiver, io.rpcx.core.internal.codec.pojo.v1.Customer.class, bytes, peer));
    assertEquals(
        "field 'name' of io.rpcx.core.internal.codec.pojo.v1.Customer has type 'int64' on the sending"
            + " side but 'string' here",
        e.getMessage());
  }

  private static PeerSchemas announced(CodecRegistry registry, Class<?> type) {
    PeerSchemas peer = new PeerSchemas();
    for (TypeSchema schema : Schemas.reachableFrom(List.of(registry.codecFor(type)))) {
      assertTrue(peer.put(schema, 100));
    }
    return peer;
  }

  // Types RPCX must refuse when a service is registered.

  static final class HasObjectField {
    Object payload;
  }

  static final class HasInterfaceField {
    Runnable task;
  }

  static final class NoDefaultConstructor {
    final String value;

    NoDefaultConstructor(String value) {
      this.value = value;
    }
  }

  final class Inner {
    String value;
  }

  static final class Generic<T> {
    T value;
  }

  @SuppressWarnings("rawtypes")
  static final class HoldsRawGeneric {
    Generic generic;
  }

  static final class HoldsWildcardGeneric {
    Generic<? extends Number> generic;
  }

  @Test
  void typesThatCannotBeCarriedAreRejectedNamingTheClassAndField() {
    assertRejected(
        HasObjectField.class,
        "unsupported type java.lang.Object, field 'payload' of"
            + " io.rpcx.core.internal.codec.pojo.PojoCodecTest$HasObjectField: Object could hold any"
            + " class, and RPCX never lets the wire choose a class; declare a concrete type");
    assertRejected(
        HasInterfaceField.class,
        "unsupported type java.lang.Runnable, field 'task' of"
            + " io.rpcx.core.internal.codec.pojo.PojoCodecTest$HasInterfaceField: an interface could be"
            + " implemented by any class, and RPCX never lets the wire choose a class; declare a"
            + " concrete class");
    assertRejected(
        NoDefaultConstructor.class,
        "unsupported type io.rpcx.core.internal.codec.pojo.PojoCodecTest$NoDefaultConstructor: it has"
            + " no no-argument constructor to create it with; add one (it may be private) or make"
            + " it a record");
    assertRejected(
        Inner.class,
        "unsupported type io.rpcx.core.internal.codec.pojo.PojoCodecTest$Inner: an inner class cannot"
            + " be created without its enclosing instance; make it a static nested class or a"
            + " top-level class");
    assertRejected(
        HoldsRawGeneric.class,
        "unsupported type io.rpcx.core.internal.codec.pojo.PojoCodecTest$Generic, field 'generic' of"
            + " io.rpcx.core.internal.codec.pojo.PojoCodecTest$HoldsRawGeneric: a generic class needs"
            + " its type arguments; declare it with concrete ones, e.g. Generic<String>");
    assertRejected(
        HoldsWildcardGeneric.class,
        "unsupported type io.rpcx.core.internal.codec.pojo.PojoCodecTest$Generic<? extends"
            + " java.lang.Number>, field 'generic' of"
            + " io.rpcx.core.internal.codec.pojo.PojoCodecTest$HoldsWildcardGeneric: its type argument"
            + " T of io.rpcx.core.internal.codec.pojo.PojoCodecTest$Generic<? extends java.lang.Number>"
            + " is the wildcard '? extends java.lang.Number', which names no class to create;"
            + " declare a concrete type");
    assertRejected(
        Thread.class,
        "unsupported type java.lang.Thread: this JDK class is not a supported value type");
  }

  @Test
  void twoClassesWithTheSameSimpleNameAreRejected() {
    CodecRegistry registry = StandardCodecs.registry();
    registry.codecFor(io.rpcx.core.internal.codec.pojo.v1.Customer.class);
    UnsupportedTypeException e =
        assertThrows(
            UnsupportedTypeException.class,
            () -> registry.codecFor(io.rpcx.core.internal.codec.pojo.v2.Customer.class));
    assertEquals(
        "unsupported type io.rpcx.core.internal.codec.pojo.v2.Customer: another class is also named"
            + " 'Customer' (io.rpcx.core.internal.codec.pojo.v1.Customer): RPCX names POJO types on the"
            + " wire by simple name; rename one of them",
        e.getMessage());
  }

  @Test
  void aClassOfMoreThan64FieldsRoundTripsAndItsDefaultsDoNotLeak() throws Exception {
    Wide wide = new Wide();
    wide.f00 = 1;
    wide.f63 = 63;
    wide.f64 = 64;
    wide.f69 = 69;
    wide.defaulted = 0;
    wide.named = null;

    Wide decoded = (Wide) roundTrip(Wide.class, wide);

    assertEquals(1, decoded.f00);
    assertEquals(0, decoded.f01);
    assertEquals(63, decoded.f63);
    assertEquals(64, decoded.f64);
    assertEquals(69, decoded.f69);
    assertEquals(0, decoded.defaulted, "a zero the sender set is not replaced by the default");
    assertNull(decoded.named, "a null the sender set is not replaced by the default");
  }

  @Test
  void aClassOfExactly64FieldsRoundTripsAndItsDefaultDoesNotLeak() throws Exception {
    Exactly64 full = new Exactly64();
    full.f00 = 1;
    full.f62 = 62;
    full.zz = 0;

    Exactly64 decoded = (Exactly64) roundTrip(Exactly64.class, full);

    assertEquals(1, decoded.f00);
    assertEquals(62, decoded.f62);
    assertEquals(0, decoded.zz, "a zero the sender set is not replaced by the default");
  }

  @Test
  void byteArraysInsidePojosRoundTripAtFullSize() throws Exception {
    Order order = new Order();
    order.attachment = new byte[1024 * 1024];
    new java.util.Random(1).nextBytes(order.attachment);
    Order decoded = (Order) roundTrip(Order.class, order);
    assertArrayEquals(order.attachment, decoded.attachment);
  }

  private static void assertRejected(Class<?> type, String message) {
    UnsupportedTypeException e =
        assertThrows(UnsupportedTypeException.class, () -> StandardCodecs.registry().codecFor(type));
    assertEquals(message, e.getMessage());
  }
}
