package io.rpcx.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.WireFormat;
import io.rpcx.core.reflection.FieldDescription;
import io.rpcx.core.reflection.TypeDescription;
import io.rpcx.http.InvalidJsonException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Converts between JSON and RPCX value messages ({@code docs/PROTOCOL.md}, section 2), driven by
 * type descriptors and the types a service's reflection describes: POJO fields by the server's own
 * numbers, enums by constant name, timestamps, durations and dates as ISO-8601 strings, bytes as
 * base64, uuids and decimals as strings. The implementation of {@link io.rpcx.http.JsonMapping}:
 * the one mapping of the command line and the servers' HTTP side. Immutable and thread-safe.
 *
 * <p>Input mistakes fail with an {@link InvalidJsonException} naming where and what was expected:
 * {@code argument 'order' field 'items[2].quantity': expected int32, got "three"}.
 */
public final class JsonWire {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int VALUE = 1;

  private final Map<String, TypeDescription> types = new HashMap<>();
  private final ProtobufJson protobuf;

  /**
   * A converter for values of these described types (and every built-in type); {@code protobuf}
   * has the descriptors of their protobuf messages, or is {@code null} when they have none.
   */
  public JsonWire(List<TypeDescription> described, ProtobufJson protobuf) {
    for (TypeDescription type : described) {
      types.put(type.name(), type);
    }
    this.protobuf = protobuf;
  }

  // ---------------------------------------------------------------- JSON to wire

  /**
   * The value message of {@code value} as type {@code type}; empty for JSON {@code null}.
   *
   * @param where how messages name the value: {@code argument 'order'}
   */
  public byte[] encode(JsonNode value, TypeRef type, String where) {
    if (value == null || value.isNull()) {
      return new byte[0];
    }
    return message(out -> write(out, VALUE, type, value, new Where(where, "")));
  }

  /**
   * A method's request message as gRPC lays it out ({@code docs/GRPC.md}, "Messages"): field
   * {@code i + 1} holds {@code values[i]} of type {@code types[i]}, absent for JSON {@code null}.
   *
   * @param wheres how messages name each value: {@code argument 'order'}
   */
  public byte[] encodeFields(List<TypeRef> types, List<JsonNode> values, List<String> wheres) {
    return message(
        out -> {
          for (int i = 0; i < types.size(); i++) {
            JsonNode value = values.get(i);
            if (value != null && !value.isNull()) {
              write(out, i + 1, types.get(i), value, new Where(wheres.get(i), ""));
            }
          }
        });
  }

  private void write(CodedOutputStream out, int field, TypeRef type, JsonNode value, Where where)
      throws IOException {
    switch (type.name()) {
      case "bool":
        out.writeBool(field, bool(value, where));
        return;
      case "int32":
        out.writeInt32(field, int32(value, where));
        return;
      case "int64":
        out.writeInt64(field, int64(value, where));
        return;
      case "char":
        out.writeUInt32(field, character(value, where));
        return;
      case "float":
        out.writeFloat(field, (float) floating(value, "float", where));
        return;
      case "double":
        out.writeDouble(field, floating(value, "double", where));
        return;
      case "string":
        out.writeString(field, text(value, "string", where));
        return;
      case "bytes":
        out.writeByteArray(field, base64(value, where));
        return;
      case "timestamp": {
        Instant instant = parse(value, "timestamp", "an ISO-8601 instant such as"
            + " \"2024-05-01T10:00:00Z\"", where, Instant::parse);
        out.writeByteArray(field, secondsNanos(instant.getEpochSecond(), instant.getNano()));
        return;
      }
      case "duration": {
        Duration duration = parse(value, "duration", "an ISO-8601 duration such as \"PT1.5S\"",
            where, Duration::parse);
        out.writeByteArray(field, secondsNanos(duration.getSeconds(), duration.getNano()));
        return;
      }
      case "date": {
        LocalDate date = parse(value, "date", "an ISO-8601 date such as \"2024-05-01\"", where,
            LocalDate::parse);
        out.writeByteArray(field, message(m -> {
          m.writeInt32(1, date.getYear());
          m.writeInt32(2, date.getMonthValue());
          m.writeInt32(3, date.getDayOfMonth());
        }));
        return;
      }
      case "datetime": {
        LocalDateTime time = parse(value, "datetime", "an ISO-8601 date and time such as"
            + " \"2024-05-01T10:00:00\"", where, LocalDateTime::parse);
        out.writeByteArray(field, message(m -> {
          m.writeInt32(1, time.getYear());
          m.writeInt32(2, time.getMonthValue());
          m.writeInt32(3, time.getDayOfMonth());
          m.writeInt32(4, time.getHour());
          m.writeInt32(5, time.getMinute());
          m.writeInt32(6, time.getSecond());
          m.writeInt32(7, time.getNano());
        }));
        return;
      }
      case "decimal":
        out.writeString(field, decimal(value, where).toString());
        return;
      case "bigint":
        out.writeByteArray(field, bigint(value, where).toByteArray());
        return;
      case "uuid": {
        UUID uuid = parse(value, "uuid", "a UUID such as \"123e4567-e89b-12d3-a456-426614174000\"",
            where, UUID::fromString);
        out.writeByteArray(field, ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
            .putLong(uuid.getLeastSignificantBits()).array());
        return;
      }
      default:
        break;
    }
    if (type.isList()) {
      out.writeByteArray(field, collection(value, type, where));
    } else if (type.isMap()) {
      out.writeByteArray(field, map(value, type, where));
    } else {
      TypeDescription described = described(type, where);
      switch (described.kind()) {
        case ENUM:
          out.writeString(field, constant(value, described, where));
          return;
        case CLASS:
        case RECORD:
          out.writeByteArray(field, pojo(value, described, where));
          return;
        default: {
          Descriptor descriptor = protobuf == null ? null : protobuf.message(type.text());
          if (descriptor == null) {
            throw new InvalidJsonException(where + ": the service describes no fields of protobuf"
                + " message " + type + " (a lite message), so it cannot be written from JSON");
          }
          out.writeByteArray(field, ProtobufJson.fromJson(value, descriptor, where).toByteArray());
          return;
        }
      }
    }
  }

  private byte[] collection(JsonNode value, TypeRef type, Where where) {
    if (!value.isArray()) {
      throw expected(where, type + " (a JSON array)", value);
    }
    TypeRef element = type.argument(0);
    return message(out -> {
      List<Integer> nulls = new ArrayList<>();
      if (isPackable(element)) {
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        CodedOutputStream elements = CodedOutputStream.newInstance(packed);
        for (int i = 0; i < value.size(); i++) {
          JsonNode item = value.get(i);
          if (item.isNull()) {
            nulls.add(i);
          } else {
            writePacked(elements, element, item, where.index(i));
          }
        }
        elements.flush();
        if (packed.size() > 0) {
          out.writeByteArray(1, packed.toByteArray());
        }
      } else {
        for (int i = 0; i < value.size(); i++) {
          JsonNode item = value.get(i);
          if (item.isNull()) {
            nulls.add(i);
          } else {
            write(out, 1, element, item, where.index(i));
          }
        }
      }
      if (!nulls.isEmpty()) {
        out.writeByteArray(2, message(positions -> {
          for (int position : nulls) {
            positions.writeUInt32NoTag(position);
          }
        }));
      }
    });
  }

  private void writePacked(CodedOutputStream out, TypeRef type, JsonNode value, Where where)
      throws IOException {
    switch (type.name()) {
      case "bool":
        out.writeBoolNoTag(bool(value, where));
        break;
      case "int32":
        out.writeInt32NoTag(int32(value, where));
        break;
      case "int64":
        out.writeInt64NoTag(int64(value, where));
        break;
      case "char":
        out.writeUInt32NoTag(character(value, where));
        break;
      case "float":
        out.writeFloatNoTag((float) floating(value, "float", where));
        break;
      default:
        out.writeDoubleNoTag(floating(value, "double", where));
        break;
    }
  }

  private byte[] map(JsonNode value, TypeRef type, Where where) {
    if (!value.isObject()) {
      throw expected(where, type + " (a JSON object)", value);
    }
    TypeRef keyType = type.argument(0);
    TypeRef valueType = type.argument(1);
    return message(out -> {
      Iterator<Map.Entry<String, JsonNode>> entries = value.properties().iterator();
      while (entries.hasNext()) {
        Map.Entry<String, JsonNode> entry = entries.next();
        Where at = where.key(entry.getKey());
        JsonNode key = mapKey(entry.getKey(), keyType.name());
        out.writeByteArray(1, message(m -> {
          write(m, 1, keyType, key, at);
          if (!entry.getValue().isNull()) {
            write(m, 2, valueType, entry.getValue(), at);
          }
        }));
      }
    });
  }

  /** A JSON object's key (always a string) as the JSON value a map key of {@code type} takes. */
  static JsonNode mapKey(String key, String type) {
    switch (type) {
      case "int32":
      case "int64":
      case "bigint":
        try {
          return NODES.numberNode(new BigInteger(key.strip()));
        } catch (NumberFormatException e) {
          return NODES.textNode(key);
        }
      case "bool":
        return key.equals("true") || key.equals("false")
            ? NODES.booleanNode(key.equals("true"))
            : NODES.textNode(key);
      default:
        return NODES.textNode(key);
    }
  }

  private byte[] pojo(JsonNode value, TypeDescription type, Where where) {
    if (!value.isObject()) {
      throw expected(where, type.name() + " (a JSON object with fields " + fieldNames(type) + ")",
          value);
    }
    Map<String, FieldDescription> fields = new HashMap<>();
    for (FieldDescription field : type.fields()) {
      fields.put(field.name(), field);
    }
    Iterator<String> names = value.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!fields.containsKey(name)) {
        throw new InvalidJsonException(where.field(name) + ": " + type.name() + " has no field '" + name
            + "' (its fields: " + String.join(", ", fieldNames(type)) + ")");
      }
    }
    return message(out -> {
      for (FieldDescription field : type.fields()) {
        JsonNode fieldValue = value.get(field.name());
        if (fieldValue != null && !fieldValue.isNull()) {
          write(out, field.number(), TypeRef.parse(field.type()), fieldValue,
              where.field(field.name()));
        }
      }
    });
  }

  private static List<String> fieldNames(TypeDescription type) {
    List<String> names = new ArrayList<>();
    for (FieldDescription field : type.fields()) {
      names.add(field.name());
    }
    return names;
  }

  private TypeDescription described(TypeRef type, Where where) {
    TypeDescription described = types.get(type.text());
    if (described == null) {
      throw new InvalidJsonException(where + ": the service describes no type " + type);
    }
    return described;
  }

  private static String constant(JsonNode value, TypeDescription type, Where where) {
    if (!value.isTextual() || !type.constants().contains(value.asText())) {
      throw expected(where, type.name() + " (one of " + String.join(", ", type.constants()) + ")",
          value);
    }
    return value.asText();
  }

  static boolean bool(JsonNode value, Where where) {
    if (!value.isBoolean()) {
      throw expected(where, "bool", value);
    }
    return value.booleanValue();
  }

  static int int32(JsonNode value, Where where) {
    JsonNode number = numeric(value);
    if (number == null || !number.isIntegralNumber() || !number.canConvertToInt()) {
      throw expected(where, "int32", value);
    }
    return number.intValue();
  }

  static long int64(JsonNode value, Where where) {
    JsonNode number = numeric(value);
    if (number == null || !number.isIntegralNumber() || !number.canConvertToLong()) {
      throw expected(where, "int64", value);
    }
    return number.longValue();
  }

  /** A number, or a string holding an integer (as JSON tools write 64-bit numbers); else null. */
  private static JsonNode numeric(JsonNode value) {
    if (value.isNumber()) {
      return value;
    }
    if (value.isTextual()) {
      try {
        return NODES.numberNode(new BigInteger(value.asText().strip()));
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  private static int character(JsonNode value, Where where) {
    if (!value.isTextual() || value.asText().length() != 1) {
      throw expected(where, "char (a string of one character)", value);
    }
    return value.asText().charAt(0);
  }

  static double floating(JsonNode value, String type, Where where) {
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isTextual()) {
      switch (value.asText()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
    }
    throw expected(where, type, value);
  }

  static String text(JsonNode value, String type, Where where) {
    if (!value.isTextual()) {
      throw expected(where, type, value);
    }
    return value.asText();
  }

  static byte[] base64(JsonNode value, Where where) {
    if (value.isTextual()) {
      try {
        return Base64.getDecoder().decode(value.asText());
      } catch (IllegalArgumentException e) {
        // reported below
      }
    }
    throw expected(where, "bytes (a base64 string)", value);
  }

  private static BigDecimal decimal(JsonNode value, Where where) {
    if (value.isNumber()) {
      return value.decimalValue();
    }
    if (value.isTextual()) {
      try {
        return new BigDecimal(value.asText().strip());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw expected(where, "decimal (a number or a string such as \"12.50\")", value);
  }

  private static BigInteger bigint(JsonNode value, Where where) {
    if (value.isIntegralNumber()) {
      return value.bigIntegerValue();
    }
    if (value.isTextual()) {
      try {
        return new BigInteger(value.asText().strip());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw expected(where, "bigint (an integer)", value);
  }

  private interface Parse<T> {
    T parse(String text);
  }

  private static <T> T parse(JsonNode value, String type, String example, Where where,
      Parse<T> parser) {
    if (value.isTextual()) {
      try {
        return parser.parse(value.asText().strip());
      } catch (DateTimeParseException | IllegalArgumentException | ArithmeticException e) {
        // reported below
      }
    }
    throw expected(where, type + " (" + example + ")", value);
  }

  private static byte[] secondsNanos(long seconds, int nanos) {
    return message(m -> {
      if (seconds != 0) {
        m.writeInt64(1, seconds);
      }
      if (nanos != 0) {
        m.writeInt32(2, nanos);
      }
    });
  }

  static InvalidJsonException expected(Where where, String type, JsonNode value) {
    return new InvalidJsonException(where + ": expected " + type + ", got " + shown(value));
  }

  /** A JSON value as an error message shows it: short, on one line. */
  public static String shown(JsonNode value) {
    String text = value.toString();
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }

  private interface Body {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Body body) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      body.write(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory failed", e);
    }
  }

  private static boolean isPackable(TypeRef type) {
    switch (type.name()) {
      case "bool":
      case "int32":
      case "int64":
      case "char":
      case "float":
      case "double":
        return true;
      default:
        return false;
    }
  }

  /** Where a value is, as messages name it: {@code argument 'order' field 'items[2].quantity'}. */
  record Where(String root, String path) {
    Where field(String name) {
      return new Where(root, path.isEmpty() ? name : path + "." + name);
    }

    Where index(int index) {
      return new Where(root, path + "[" + index + "]");
    }

    Where key(String key) {
      return new Where(root, path + "[\"" + key + "\"]");
    }

    @Override
    public String toString() {
      return path.isEmpty() ? root : root + " field '" + path + "'";
    }
  }

  // ---------------------------------------------------------------- examples

  /**
   * An example JSON value of {@code type}, as a user would write one, which this mapping reads:
   * what the console and the OpenAPI document show. A type that contains itself is cut where it
   * recurs ({@code null}).
   */
  public JsonNode example(TypeRef type) {
    return example(type, new HashSet<>());
  }

  private JsonNode example(TypeRef type, Set<String> open) {
    switch (type.name()) {
      case "void":
        return NullNode.getInstance();
      case "bool":
        return NODES.booleanNode(true);
      case "int32":
      case "int64":
        return NODES.numberNode(42);
      case "char":
        return NODES.textNode("x");
      case "float":
      case "double":
        return NODES.numberNode(new BigDecimal("1.5"));
      case "string":
        return NODES.textNode("text");
      case "bytes":
        return NODES.textNode("AQID");
      case "timestamp":
        return NODES.textNode("2024-05-01T10:00:00Z");
      case "duration":
        return NODES.textNode("PT1.5S");
      case "date":
        return NODES.textNode("2024-05-01");
      case "datetime":
        return NODES.textNode("2024-05-01T10:00:00");
      case "decimal":
        return NODES.textNode("12.50");
      case "bigint":
        return NODES.numberNode(BigInteger.valueOf(12345678901234L));
      case "uuid":
        return NODES.textNode("123e4567-e89b-12d3-a456-426614174000");
      default:
        break;
    }
    if (type.name().equals("stream") && type.arguments().size() == 1) {
      return example(type.argument(0), open);
    }
    if (type.isList()) {
      return NODES.arrayNode().add(example(type.argument(0), open));
    }
    if (type.isMap()) {
      JsonNode key = example(type.argument(0), open);
      return NODES.objectNode()
          .set(key.isTextual() ? key.asText() : key.toString(), example(type.argument(1), open));
    }
    TypeDescription described = types.get(type.text());
    if (described == null || !open.add(type.text())) {
      return NullNode.getInstance();
    }
    try {
      switch (described.kind()) {
        case ENUM:
          return described.constants().isEmpty()
              ? NullNode.getInstance()
              : NODES.textNode(described.constants().get(0));
        case CLASS:
        case RECORD: {
          ObjectNode object = NODES.objectNode();
          for (FieldDescription field : described.fields()) {
            object.set(field.name(), example(TypeRef.parse(field.type()), open));
          }
          return object;
        }
        default:
          return NODES.objectNode();
      }
    } finally {
      open.remove(type.text());
    }
  }

  // ---------------------------------------------------------------- wire to JSON

  /**
   * The JSON of the value message {@code message} of type {@code type}: {@code null} for an empty
   * message.
   *
   * @throws IOException if the message does not hold a value of that type
   */
  public JsonNode decode(byte[] message, TypeRef type) throws IOException {
    if (type.name().equals("void")) {
      return NullNode.getInstance();
    }
    CodedInputStream in = CodedInputStream.newInstance(message);
    JsonNode value = NullNode.getInstance();
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return value;
      }
      if (WireFormat.getTagFieldNumber(tag) == VALUE) {
        value = read(in, tag, type);
      } else {
        in.skipField(tag);
      }
    }
  }

  private JsonNode read(CodedInputStream in, int tag, TypeRef type) throws IOException {
    int wireType = WireFormat.getTagWireType(tag);
    int expected = wireTypeOf(type);
    if (wireType != expected) {
      throw new IOException("field " + WireFormat.getTagFieldNumber(tag) + " has wire type "
          + wireType + " but " + type + " needs wire type " + expected);
    }
    switch (type.name()) {
      case "bool":
        return NODES.booleanNode(in.readBool());
      case "int32":
        return NODES.numberNode(in.readInt32());
      case "int64":
        return NODES.numberNode(in.readInt64());
      case "char":
        return NODES.textNode(String.valueOf((char) in.readUInt32()));
      case "float":
        return NODES.numberNode(in.readFloat());
      case "double":
        return NODES.numberNode(in.readDouble());
      case "string":
        return NODES.textNode(in.readString());
      case "bytes":
        return NODES.textNode(Base64.getEncoder().encodeToString(in.readByteArray()));
      case "timestamp": {
        long[] parts = ints(in.readByteArray(), 2);
        return NODES.textNode(Instant.ofEpochSecond(parts[0], parts[1]).toString());
      }
      case "duration": {
        long[] parts = ints(in.readByteArray(), 2);
        return NODES.textNode(Duration.ofSeconds(parts[0], parts[1]).toString());
      }
      case "date": {
        long[] p = ints(in.readByteArray(), 3);
        return NODES.textNode(dateTime(() -> LocalDate.of((int) p[0], (int) p[1], (int) p[2])));
      }
      case "datetime": {
        long[] p = ints(in.readByteArray(), 7);
        return NODES.textNode(dateTime(() -> LocalDateTime.of((int) p[0], (int) p[1], (int) p[2],
            (int) p[3], (int) p[4], (int) p[5], (int) p[6])));
      }
      case "decimal":
        return NODES.numberNode(new BigDecimal(in.readString()));
      case "bigint": {
        byte[] bytes = in.readByteArray();
        return NODES.numberNode(bytes.length == 0 ? BigInteger.ZERO : new BigInteger(bytes));
      }
      case "uuid": {
        ByteBuffer bytes = ByteBuffer.wrap(in.readByteArray());
        if (bytes.remaining() != 16) {
          throw new IOException("a uuid of " + bytes.remaining() + " bytes (expected: 16)");
        }
        return NODES.textNode(new UUID(bytes.getLong(), bytes.getLong()).toString());
      }
      default:
        break;
    }
    if (type.isList()) {
      return readCollection(in.readByteArray(), type.argument(0));
    }
    if (type.isMap()) {
      return readMap(in.readByteArray(), type.argument(0), type.argument(1));
    }
    TypeDescription described = types.get(type.text());
    if (described == null) {
      throw new IOException("the service describes no type " + type);
    }
    switch (described.kind()) {
      case ENUM:
        return NODES.textNode(in.readString());
      case CLASS:
      case RECORD:
        return readPojo(in.readByteArray(), described);
      default: {
        byte[] bytes = in.readByteArray();
        Descriptor descriptor = protobuf == null ? null : protobuf.message(type.text());
        if (descriptor == null) {
          // A lite message, described by no descriptor: its bytes.
          return NODES.textNode(Base64.getEncoder().encodeToString(bytes));
        }
        return ProtobufJson.toJson(DynamicMessage.parseFrom(descriptor, bytes));
      }
    }
  }

  private interface DateTimeValue {
    Object get();
  }

  private static String dateTime(DateTimeValue value) throws IOException {
    try {
      return value.get().toString();
    } catch (DateTimeException e) {
      throw new IOException(e.getMessage());
    }
  }

  private JsonNode readCollection(byte[] message, TypeRef element) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(message);
    List<JsonNode> elements = new ArrayList<>();
    List<Integer> nulls = new ArrayList<>();
    int elementWireType = wireTypeOf(element);
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      int field = WireFormat.getTagFieldNumber(tag);
      int wireType = WireFormat.getTagWireType(tag);
      if (field == 1 && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED
          && elementWireType != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        int limit = in.pushLimit(in.readRawVarint32());
        while (in.getBytesUntilLimit() > 0) {
          elements.add(read(in, tag(1, elementWireType), element));
        }
        in.popLimit(limit);
      } else if (field == 1) {
        elements.add(read(in, tag, element));
      } else if (field == 2 && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        int limit = in.pushLimit(in.readRawVarint32());
        while (in.getBytesUntilLimit() > 0) {
          nulls.add(in.readUInt32());
        }
        in.popLimit(limit);
      } else if (field == 2) {
        nulls.add(in.readUInt32());
      } else {
        in.skipField(tag);
      }
    }
    ArrayNode array = NODES.arrayNode();
    Iterator<JsonNode> next = elements.iterator();
    int size = elements.size() + nulls.size();
    for (int i = 0; i < size; i++) {
      array.add(nulls.contains(i) || !next.hasNext() ? NullNode.getInstance() : next.next());
    }
    return array;
  }

  private JsonNode readMap(byte[] message, TypeRef keyType, TypeRef valueType) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(message);
    ObjectNode map = NODES.objectNode();
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return map;
      }
      if (tag != tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        in.skipField(tag);
        continue;
      }
      CodedInputStream entry = CodedInputStream.newInstance(in.readByteArray());
      JsonNode key = NullNode.getInstance();
      JsonNode value = NullNode.getInstance();
      while (true) {
        int entryTag = entry.readTag();
        if (entryTag == 0) {
          break;
        }
        int field = WireFormat.getTagFieldNumber(entryTag);
        if (field == 1) {
          key = read(entry, entryTag, keyType);
        } else if (field == 2) {
          value = read(entry, entryTag, valueType);
        } else {
          entry.skipField(entryTag);
        }
      }
      map.set(key.isTextual() ? key.asText() : key.toString(), value);
    }
  }

  private JsonNode readPojo(byte[] message, TypeDescription type) throws IOException {
    Map<Integer, FieldDescription> fields = new HashMap<>();
    for (FieldDescription field : type.fields()) {
      fields.put(field.number(), field);
    }
    Map<Integer, JsonNode> values = new TreeMap<>();
    CodedInputStream in = CodedInputStream.newInstance(message);
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      FieldDescription field = fields.get(WireFormat.getTagFieldNumber(tag));
      if (field == null) {
        in.skipField(tag);
      } else {
        values.put(field.number(), read(in, tag, TypeRef.parse(field.type())));
      }
    }
    ObjectNode object = NODES.objectNode();
    for (Map.Entry<Integer, JsonNode> value : values.entrySet()) {
      object.set(fields.get(value.getKey()).name(), value.getValue());
    }
    return object;
  }

  /** Reads the varint fields 1..count of a small message ({@code {seconds, nanos}}, a date). */
  private static long[] ints(byte[] message, int count) throws IOException {
    long[] values = new long[count];
    CodedInputStream in = CodedInputStream.newInstance(message);
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return values;
      }
      int field = WireFormat.getTagFieldNumber(tag);
      if (field >= 1 && field <= count && WireFormat.getTagWireType(tag) == 0) {
        values[field - 1] = in.readInt64();
      } else {
        in.skipField(tag);
      }
    }
  }

  private static int tag(int field, int wireType) {
    return field << 3 | wireType;
  }

  private static int wireTypeOf(TypeRef type) {
    switch (type.name()) {
      case "bool":
      case "int32":
      case "int64":
      case "char":
        return WireFormat.WIRETYPE_VARINT;
      case "float":
        return WireFormat.WIRETYPE_FIXED32;
      case "double":
        return WireFormat.WIRETYPE_FIXED64;
      default:
        return WireFormat.WIRETYPE_LENGTH_DELIMITED;
    }
  }
}
