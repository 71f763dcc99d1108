package io.rpcx.core.reflection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.CodecTesting;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.reflection.Catalog.Color;
import io.rpcx.core.reflection.Catalog.Everything;
import io.rpcx.core.reflection.Catalog.ItemClass;
import io.rpcx.core.reflection.Catalog.ItemRecord;
import io.rpcx.core.reflection.Catalog.Page;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The exported schema is the wire format: bytes RPCX writes parse with protobuf-java's {@code
 * DynamicMessage} built from the exported descriptors, every field where the schema says and none
 * left over, and messages built from the schema decode in RPCX to the same values.
 */
class ProtoSchemasTest {
  private static final UUID ID = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");

  private final ProtoSchemas schemas = ProtoSchemas.of(Catalog.class);
  private final FileDescriptor file = schemas.fileDescriptor("shop.v1.Catalog");
  private final CodecRegistry codecs = StandardCodecs.registry();

  private static Everything everything() {
    List<ItemRecord> records = new ArrayList<>();
    records.add(new ItemRecord("pen", 3, Color.BLUE));
    records.add(null);
    records.add(new ItemRecord("ink", 0, null));
    Map<String, ItemRecord> byName = new LinkedHashMap<>();
    byName.put("pen", new ItemRecord("pen", 3, Color.BLUE));
    Map<UUID, Integer> counts = new LinkedHashMap<>();
    counts.put(ID, 7);
    return new Everything(
        true,
        -42,
        1L << 40,
        'é',
        1.5f,
        -2.25,
        "héllo",
        new byte[] {1, 2, 3},
        Color.GREEN,
        Instant.ofEpochSecond(1_700_000_000L, 5),
        Duration.ofMillis(1500),
        LocalDate.of(2026, 11, 26),
        LocalDateTime.of(2026, 11, 26, 23, 59, 58, 7),
        new BigDecimal("12.50"),
        new BigInteger("-123456789012345678901234567890"),
        ID,
        records,
        List.of(new ItemClass("cap", 1, Color.RED)),
        new LinkedHashSet<>(List.of("a", "b")),
        byName,
        counts,
        List.of(List.of(1, 2), List.of()),
        new int[] {5, -6, 7},
        Optional.of("fragile"),
        new Page<>(List.of(new ItemClass("box", 2, null)), 4));
  }

  @Test
  void aResultWrittenByRpcxParsesWithTheExportedReplyMessageFieldByField() throws Exception {
    byte[] bytes = CodecTesting.encode(codecs, Everything.class, everything());
    DynamicMessage reply = DynamicMessage.parseFrom(message("EchoReply"), bytes);
    assertNoUnknownFields(reply);
    Message value = (Message) field(reply, "value");

    assertEquals(true, field(value, "flag"));
    assertEquals(-42, field(value, "count"));
    assertEquals(1L << 40, field(value, "total"));
    assertEquals((int) 'é', field(value, "letter"));
    assertEquals(1.5f, field(value, "ratio"));
    assertEquals(-2.25, field(value, "weight"));
    assertEquals("héllo", field(value, "text"));
    assertEquals(ByteString.copyFrom(new byte[] {1, 2, 3}), field(value, "blob"));
    assertEquals("GREEN", field(value, "color"));
    Message at = (Message) field(value, "at");
    assertEquals("google.protobuf.Timestamp", at.getDescriptorForType().getFullName());
    assertEquals(1_700_000_000L, field(at, "seconds"));
    assertEquals(5, field(at, "nanos"));
    Message took = (Message) field(value, "took");
    assertEquals(1L, field(took, "seconds"));
    assertEquals(500_000_000, field(took, "nanos"));
    Message day = (Message) field(value, "day");
    assertEquals("rpcx.v1.Date", day.getDescriptorForType().getFullName());
    assertEquals(List.of(2026, 11, 26), List.of(field(day, "year"), field(day, "month"), field(day, "day")));
    Message moment = (Message) field(value, "moment");
    assertEquals(
        List.of(2026, 11, 26, 23, 59, 58, 7),
        List.of(
            field(moment, "year"), field(moment, "month"), field(moment, "day"), field(moment, "hours"),
            field(moment, "minutes"), field(moment, "seconds"), field(moment, "nanos")));
    assertEquals("12.50", field(value, "amount"));
    assertEquals(
        new BigInteger("-123456789012345678901234567890"),
        new BigInteger(((ByteString) field(value, "big")).toByteArray()));
    ByteBuffer id = ((ByteString) field(value, "id")).asReadOnlyByteBuffer();
    assertEquals(ID, new UUID(id.getLong(), id.getLong()));

    Message records = (Message) field(value, "records");
    assertEquals("shop.v1.Catalog.ListOfItemRecord", records.getDescriptorForType().getFullName());
    List<?> recordValues = (List<?>) field(records, "values");
    assertEquals(2, recordValues.size());
    assertItem((Message) recordValues.get(0), "pen", 3, "BLUE");
    assertItem((Message) recordValues.get(1), "ink", 0, "");
    assertEquals(List.of(1), field(records, "nullPositions"));
    Message classes = (Message) field(value, "classes");
    assertItem((Message) ((List<?>) field(classes, "values")).get(0), "cap", 1, "RED");
    assertEquals(List.of("a", "b"), field((Message) field(value, "tags"), "values"));

    List<?> byName = (List<?>) field((Message) field(value, "byName"), "entries");
    assertEquals(1, byName.size());
    assertEquals("pen", field((Message) byName.get(0), "key"));
    assertItem((Message) field((Message) byName.get(0), "value"), "pen", 3, "BLUE");
    Message counts = (Message) field(value, "counts");
    assertEquals("shop.v1.Catalog.MapOfUuidToInt32", counts.getDescriptorForType().getFullName());
    Message entry = (Message) ((List<?>) field(counts, "entries")).get(0);
    assertEquals(16, ((ByteString) field(entry, "key")).size());
    assertEquals(7, field(entry, "value"));

    List<?> grid = (List<?>) field((Message) field(value, "grid"), "values");
    assertEquals(List.of(1, 2), field((Message) grid.get(0), "values"));
    assertEquals(List.of(), field((Message) grid.get(1), "values"));
    assertEquals(List.of(5, -6, 7), field((Message) field(value, "numbers"), "values"));
    assertEquals("fragile", field(value, "note"));
    Message page = (Message) field(value, "page");
    assertEquals("shop.v1.Catalog.PageOfItemClass", page.getDescriptorForType().getFullName());
    assertEquals(4, field(page, "number"));
    assertItem((Message) ((List<?>) field((Message) field(page, "content"), "values")).get(0), "box", 2, "");
  }

  @Test
  void argumentsBuiltFromTheExportedRequestMessageDecodeInRpcx() throws Exception {
    Descriptor findItems = message("Find_itemsRequest");
    FieldDescriptor query = findItems.findFieldByName("query");
    FieldDescriptor limit = findItems.findFieldByName("limit");
    assertEquals(List.of(1, 2), List.of(query.getNumber(), limit.getNumber()));
    // gRPC's request: the arguments as fields, scalars with presence (0 is sent, absent is null).
    assertTrue(query.hasPresence() && limit.hasPresence());
    // RPCX's own protocol: each argument's value message, nested in the request message.
    Descriptor queryArgumentType = findItems.findNestedTypeByName("QueryArgument");
    Descriptor limitArgumentType = findItems.findNestedTypeByName("LimitArgument");
    DynamicMessage queryArgument =
        DynamicMessage.newBuilder(queryArgumentType)
            .setField(queryArgumentType.findFieldByName("value"), "pens")
            .build();
    DynamicMessage limitArgument =
        DynamicMessage.newBuilder(limitArgumentType)
            .setField(limitArgumentType.findFieldByName("value"), 10)
            .build();
    assertEquals("pens", CodecTesting.decode(codecs, String.class, queryArgument.toByteArray(), null));
    assertEquals(10, CodecTesting.decode(codecs, int.class, limitArgument.toByteArray(), null));
    // Zero, false and empty are values, not null: proto3 optional writes them.
    DynamicMessage zero =
        DynamicMessage.newBuilder(limitArgumentType)
            .setField(limitArgumentType.findFieldByName("value"), 0)
            .build();
    assertEquals(2, zero.toByteArray().length, "field 1 = 0 is written");
    assertEquals(0, CodecTesting.decode(codecs, Integer.class, zero.toByteArray(), null));
    DynamicMessage empty =
        DynamicMessage.newBuilder(queryArgumentType)
            .setField(queryArgumentType.findFieldByName("value"), "")
            .build();
    assertEquals("", CodecTesting.decode(codecs, String.class, empty.toByteArray(), null));

    Descriptor item = message("ItemRecord");
    DynamicMessage pen =
        DynamicMessage.newBuilder(item)
            .setField(item.findFieldByName("name"), "pen")
            .setField(item.findFieldByName("quantity"), 3)
            .setField(item.findFieldByName("color"), "BLUE")
            .build();
    Descriptor list = message("ListOfItemRecord");
    DynamicMessage items =
        DynamicMessage.newBuilder(list)
            .addRepeatedField(list.findFieldByName("values"), pen)
            .addRepeatedField(list.findFieldByName("nullPositions"), 0)
            .build();
    Descriptor reply = message("Find_itemsReply");
    DynamicMessage result =
        DynamicMessage.newBuilder(reply).setField(reply.findFieldByName("value"), items).build();
    java.lang.reflect.Type listOfRecords = Catalog.class.getMethod("findItems", String.class, int.class).getGenericReturnType();
    assertEquals(
        Arrays.asList(null, new ItemRecord("pen", 3, Color.BLUE)),
        CodecTesting.decode(codecs, listOfRecords, result.toByteArray(), null));
  }

  @Test
  void everyValueWrittenFromTheSchemaComesBackEqualThroughRpcx() throws Exception {
    Everything original = everything();
    byte[] bytes = CodecTesting.encode(codecs, Everything.class, original);
    // Parsed with the schema and written again by protobuf-java: RPCX reads it as it wrote it.
    byte[] rewritten = DynamicMessage.parseFrom(message("EchoReply"), bytes).toByteArray();
    Everything decoded = (Everything) CodecTesting.decode(codecs, Everything.class, rewritten, null);
    assertEquals(original.records(), decoded.records());
    assertEquals(original.byName(), decoded.byName());
    assertEquals(original.counts(), decoded.counts());
    assertEquals(original.grid(), decoded.grid());
    assertArrayEquals(original.numbers(), decoded.numbers());
    assertEquals(original.moment(), decoded.moment());
    assertEquals(original.amount(), decoded.amount());
    assertEquals(original.id(), decoded.id());
    assertEquals(original.note(), decoded.note());
  }

  @Test
  void theDescriptionNamesEveryMethodTypeAndFieldNumber() {
    ServiceDescription catalog = schemas.describe("shop.v1.Catalog");
    assertEquals(List.of("configure", "echo", "find-items", "ping", "tree"), catalog.methods().stream().map(MethodDescription::name).toList());
    MethodDescription findItems = catalog.method("find-items");
    assertEquals("find-items(string query, int32 limit) -> list<ItemRecord>", findItems.signature());
    assertEquals("findItems", findItems.javaName());
    assertTrue(findItems.idempotent());
    assertEquals(2_000, findItems.timeoutMillis());
    assertEquals(List.of(Catalog.ItemsUnavailableException.class.getName()), findItems.declaredExceptions());
    assertEquals("void", catalog.method("ping").resultType());
    assertEquals(
        new TypeDescription(
            "ItemRecord",
            TypeDescription.Kind.RECORD,
            ItemRecord.class.getName(),
            List.of(
                new FieldDescription("color", 1, "Color"),
                new FieldDescription("name", 2, "string"),
                new FieldDescription("quantity", 3, "int32")),
            List.of()),
        catalog.type("ItemRecord"));
    assertEquals(TypeDescription.Kind.CLASS, catalog.type("ItemClass").kind());
    assertEquals(List.of("RED", "GREEN", "BLUE"), catalog.type("Color").constants());
    assertEquals("Page<ItemClass>", catalog.type("Page<ItemClass>").name());
  }

  @Test
  void theProtoFileReadsAsTheWireFormat() {
    Map<String, String> files = schemas.protoFiles("shop.v1.Catalog");
    assertEquals(
        List.of("shop/v1/Catalog.proto", "rpcx/v1/values.proto", "rpcx/v1/rpcx.proto"),
        List.copyOf(files.keySet()));
    String proto = files.get("shop/v1/Catalog.proto");
    assertTrue(proto.contains("syntax = \"proto3\";\n\npackage shop.v1.Catalog;\n"), proto);
    assertTrue(
        proto.contains(
            "// find-items(string query, int32 limit) -> list<ItemRecord>\n"
                + "// gRPC: the request message. RPCX: RPCXRequest{service: \"shop.v1.Catalog\","
                + " method: \"find-items\", arguments: one Argument per argument, in order}\n"
                + "// Idempotent: a client may retry it.\n"
                + "// Timeout: 2000 ms.\n"
                + "message Find_itemsRequest {\n"
                + "  // argument 0: string\n"
                + "  optional string query = 1;\n"
                + "  // argument 1: int32\n"
                + "  optional int32 limit = 2;\n"
                + "\n"
                + "  // RPCX: arguments[0] is Argument{type: \"string\", value: this message}\n"
                + "  message QueryArgument {\n"
                + "    optional string value = 1;\n"
                + "  }\n"),
        proto);
    assertTrue(
        proto.contains(
            "// RPCX ItemRecord: " + ItemRecord.class.getName() + " (record)\n"
                + "message ItemRecord {\n"
                + "  // Color (enum), the name of one of: RED, GREEN, BLUE\n"
                + "  string color = 1;\n"
                + "  string name = 2;\n"
                + "  int32 quantity = 3;\n"
                + "}\n"),
        proto);
    assertTrue(proto.contains("  map<string, ItemRecord> entries = 1;\n"), proto);
    assertTrue(proto.contains("  repeated MapOfUuidToInt32.Entry entries = 1;\n"), proto);
    assertTrue(proto.contains("    .shop.v1.Catalog.Everything value = 1;\n"), proto);
    assertTrue(proto.contains("  .google.protobuf.Timestamp at = 2;\n"), proto);
    assertTrue(proto.contains("\nservice Catalog {\n"), proto);
    assertTrue(
        proto.contains(
            "  // find-items(string query, int32 limit) -> list<ItemRecord>\n"
                + "  rpc find_items(Find_itemsRequest) returns (Find_itemsReply);\n"),
        proto);
  }

  @Test
  void theDescriptorSetHoldsTheServiceFileAfterEveryFileItImports() {
    List<String> names =
        schemas.fileDescriptorSet("shop.v1.Catalog").getFileList().stream().map(FileDescriptorProto::getName).toList();
    assertEquals(
        List.of(
            "google/protobuf/duration.proto",
            "google/protobuf/struct.proto",
            "google/protobuf/timestamp.proto",
            "rpcx/v1/values.proto",
            "shop/v1/Catalog.proto"),
        names);
  }

  @Test
  void aTypeThatReachesItselfIsOneMessage() throws Exception {
    Catalog.Node tree = new Catalog.Node("root", List.of(new Catalog.Node("leaf", List.of())));
    DynamicMessage reply =
        DynamicMessage.parseFrom(message("TreeReply"), CodecTesting.encode(codecs, Catalog.Node.class, tree));
    assertNoUnknownFields(reply);
    Message root = (Message) field(reply, "value");
    assertEquals("root", field(root, "name"));
    Message leaf = (Message) ((List<?>) field((Message) field(root, "children"), "values")).get(0);
    assertEquals("leaf", field(leaf, "name"));
    assertEquals(message("Node"), leaf.getDescriptorForType());
  }

  @Test
  void aProtobufMessageIsItselfImportedFromItsOwnFile() throws Exception {
    com.google.protobuf.Struct settings =
        com.google.protobuf.Struct.newBuilder()
            .putFields("retries", com.google.protobuf.Value.newBuilder().setNumberValue(3).build())
            .build();
    DynamicMessage reply =
        DynamicMessage.parseFrom(
            message("ConfigureReply"), CodecTesting.encode(codecs, com.google.protobuf.Struct.class, settings));
    assertEquals(settings, com.google.protobuf.Struct.parseFrom(((Message) field(reply, "value")).toByteString()));
    assertTrue(
        schemas.fileDescriptorSet("shop.v1.Catalog").getFileList().stream()
            .anyMatch(f -> f.getName().equals("google/protobuf/struct.proto")));
    assertEquals(TypeDescription.Kind.PROTOBUF, schemas.describe("shop.v1.Catalog").type("google.protobuf.Struct").kind());
    assertTrue(
        schemas.protoFiles("shop.v1.Catalog").get("shop/v1/Catalog.proto").contains("import \"google/protobuf/struct.proto\";\n"));
  }

  /** A client stream and a bidirectional stream of the same element type. */
  @io.rpcx.annotation.RPCXClient(name = "shop.v1.Stock")
  interface Stock {
    long restock(String warehouse, java.util.concurrent.Flow.Publisher<ItemRecord> items);

    java.util.concurrent.Flow.Publisher<String> check(
        java.util.concurrent.Flow.Publisher<ItemRecord> items);
  }

  @Test
  void aStreamArgumentIsAFieldOfTheGrpcRequestAndItsRpcxElementsHaveAMessageOfTheirOwn()
      throws Exception {
    ProtoSchemas stock = ProtoSchemas.of(Stock.class);
    MethodDescription restock = stock.describe("shop.v1.Stock").method("restock");
    assertEquals("stream<ItemRecord>", restock.parameters().get(1).type());
    assertEquals("int64", restock.resultType());
    String proto = stock.protoFiles("shop.v1.Stock").get("shop/v1/Stock.proto");
    FileDescriptor file = stock.fileDescriptor("shop.v1.Stock");
    // The request keeps field i for argument i: for gRPC, the stream argument's field carries
    // one element in each message after the first (which holds the other arguments).
    Descriptor request = file.findMessageTypeByName("RestockRequest");
    assertEquals(2, request.getFields().size());
    assertEquals(1, request.getFields().get(0).getNumber());
    assertEquals("shop.v1.Stock.ItemRecord", request.getFields().get(1).getMessageType().getFullName());
    assertTrue(proto.contains("service Stock {\n"), proto);
    assertTrue(
        proto.contains("  rpc restock(stream RestockRequest) returns (RestockReply);\n"), proto);
    assertTrue(proto.contains("  rpc check(stream CheckRequest) returns (stream CheckReply);\n"), proto);
    assertTrue(
        proto.contains(
            "// RPCX: StreamMessage.value of the stream argument " + restock.parameters().get(1).name()
                + " (stream<ItemRecord>) of"
                + " shop.v1.Stock/restock:\n"
                + "// its Argument in the request is {type: \"stream<ItemRecord>\"} without a value;"
                + " the client then sends\n"),
        proto);
    byte[] element = CodecTesting.encode(codecs, ItemRecord.class, new ItemRecord("pen", 3, Color.BLUE));
    DynamicMessage message =
        DynamicMessage.parseFrom(file.findMessageTypeByName("RestockStreamArgument"), element);
    assertNoUnknownFields(message);
    assertItem((Message) field(message, "value"), "pen", 3, "BLUE");
    // A bidirectional stream has both: an element message each way.
    assertEquals("stream<string>", stock.describe("shop.v1.Stock").method("check").resultType());
    assertTrue(proto.contains("a bidirectional stream (stream<string>)"), proto);
    assertTrue(file.findMessageTypeByName("CheckStreamArgument") != null);
    assertEquals(1, file.findMessageTypeByName("CheckRequest").getFields().size());
  }

  /** A server stream: each STREAM_MESSAGE carries an element as a reply carries a result. */
  @io.rpcx.annotation.RPCXClient(name = "shop.v1.Feed")
  interface Feed {
    java.util.concurrent.Flow.Publisher<ItemRecord> watch(String query);
  }

  @Test
  void aServerStreamIsDescribedAsStreamOfTAndItsReplyMessageCarriesOneElement() throws Exception {
    ProtoSchemas feed = ProtoSchemas.of(Feed.class);
    MethodDescription watch = feed.describe("shop.v1.Feed").method("watch");
    assertEquals("stream<ItemRecord>", watch.resultType());
    assertEquals(0, watch.timeoutMillis());
    String proto = feed.protoFiles("shop.v1.Feed").get("shop/v1/Feed.proto");
    assertTrue(
        proto.contains(
            "// The stream of shop.v1.Feed/watch, a server stream (stream<ItemRecord>): one"
                + " element in each message, in field 1 (absent when it is null).\n"
                + "// RPCX: StreamMessage.value of each STREAM_MESSAGE, then STREAM_END"
                + " (docs/PROTOCOL.md, section 5).\n"
                + "message WatchReply {\n"
                + "  ItemRecord value = 1;\n"
                + "}\n"),
        proto);
    byte[] element = CodecTesting.encode(codecs, ItemRecord.class, new ItemRecord("pen", 3, Color.BLUE));
    DynamicMessage message =
        DynamicMessage.parseFrom(feed.fileDescriptor("shop.v1.Feed").findMessageTypeByName("WatchReply"), element);
    assertNoUnknownFields(message);
    assertItem((Message) field(message, "value"), "pen", 3, "BLUE");
  }

  @Test
  void namesThatCollideAsProtobufNamesAreMadeUnique() throws Exception {
    FileDescriptor clashes = ProtoSchemas.of(Clashes.class).fileDescriptor("clashes");
    Descriptor both = clashes.findMessageTypeByName("BothRequest");
    Descriptor list = both.findFieldByName("items").getMessageType();
    Descriptor record = both.findFieldByName("named").getMessageType();
    assertEquals(
        List.of("values", "nullPositions"),
        list.getFields().stream().map(FieldDescriptor::getName).toList());
    assertEquals(List.of("note"), record.getFields().stream().map(FieldDescriptor::getName).toList());
    assertTrue(!list.getName().equals(record.getName()), list.getName());
    Descriptor cased = clashes.findMessageTypeByName("CasedRequest");
    assertEquals(
        List.of("FooArgument", "FooArgument_"),
        cased.getNestedTypes().stream().map(Descriptor::getName).toList());
    DynamicMessage named =
        DynamicMessage.parseFrom(
            both.findNestedTypeByName("NamedArgument"),
            CodecTesting.encode(codecs, Clashes.ListOfItemRecord.class, new Clashes.ListOfItemRecord("fragile")));
    assertEquals("fragile", field((Message) field(named, "value"), "note"));
  }

  @Test
  void aTypeThatIsNoServiceIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProtoSchemas.of(String.class));
    assertEquals("java.lang.String is neither an @RPCXClient interface nor an @RPCXServer class", e.getMessage());
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> schemas.protoFiles("orders"));
    assertEquals("no service 'orders' (these schemas describe: shop.v1.Catalog)", unknown.getMessage());
  }

  private Descriptor message(String name) {
    Descriptor descriptor = file.findMessageTypeByName(name);
    if (descriptor == null) {
      throw new AssertionError("no message " + name + " in " + file.toProto());
    }
    return descriptor;
  }

  private static Object field(Message message, String name) {
    FieldDescriptor field = message.getDescriptorForType().findFieldByName(name);
    if (field == null) {
      throw new AssertionError(message.getDescriptorForType().getFullName() + " has no field " + name);
    }
    return message.getField(field);
  }

  private static void assertItem(Message item, String name, int quantity, String color) {
    assertEquals(List.of(name, quantity, color), List.of(field(item, "name"), field(item, "quantity"), field(item, "color")));
  }

  /** Every byte RPCX wrote landed in a field the schema declares, at every depth. */
  private static void assertNoUnknownFields(Message message) {
    assertTrue(
        message.getUnknownFields().asMap().isEmpty(),
        () -> message.getDescriptorForType().getFullName() + " has unknown fields " + message.getUnknownFields());
    for (Map.Entry<FieldDescriptor, Object> entry : message.getAllFields().entrySet()) {
      if (entry.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      if (entry.getKey().isRepeated()) {
        for (Object element : (List<?>) entry.getValue()) {
          assertNoUnknownFields((Message) element);
        }
      } else {
        assertNoUnknownFields((Message) entry.getValue());
      }
    }
  }
}
