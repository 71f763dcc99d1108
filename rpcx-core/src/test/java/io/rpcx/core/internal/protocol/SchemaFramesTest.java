package io.rpcx.core.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.TypeSchema;
import io.rpcx.core.internal.protocol.proto.Schema;
import io.rpcx.core.internal.protocol.proto.SchemaField;
import io.rpcx.core.internal.protocol.proto.SchemaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hand-written SCHEMA payload is message {@code Schema} of rpcx.proto: protoc's generated
 * classes write the same bytes and read what it writes, and the other way round.
 */
class SchemaFramesTest {

  private static final List<TypeSchema> ORDERS =
      List.of(
          new TypeSchema(
              "OrderInfo",
              List.of(
                  new TypeSchema.Field("customer", 1, "Customer"),
                  new TypeSchema.Field("items", 2, "list<OrderItem>"),
                  new TypeSchema.Field("total", 3, "string"))),
          new TypeSchema("Empty", List.of()),
          new TypeSchema(
              "Customer",
              List.of(
                  new TypeSchema.Field("name", 1, "string"),
                  new TypeSchema.Field("naïve 名前", 8191, "map<string,int64>"))));

  private static Schema generated(List<TypeSchema> schemas) {
    Schema.Builder message = Schema.newBuilder();
    for (TypeSchema schema : schemas) {
      SchemaType.Builder type = message.addTypesBuilder().setName(schema.name());
      for (TypeSchema.Field field : schema.fields()) {
        type.addFields(
            SchemaField.newBuilder()
                .setName(field.name())
                .setNumber(field.number())
                .setType(field.type()));
      }
    }
    return message.build();
  }

  private static List<TypeSchema> fromGenerated(Schema schema) {
    List<TypeSchema> types = new ArrayList<>();
    for (SchemaType type : schema.getTypesList()) {
      List<TypeSchema.Field> fields = new ArrayList<>();
      for (SchemaField field : type.getFieldsList()) {
        fields.add(new TypeSchema.Field(field.getName(), field.getNumber(), field.getType()));
      }
      types.add(new TypeSchema(type.getName(), fields));
    }
    return types;
  }

  private static void assertSameTypes(List<TypeSchema> expected, List<TypeSchema> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i).name(), actual.get(i).name());
      assertEquals(expected.get(i).fields(), actual.get(i).fields());
    }
  }

  @Test
  void writesTheBytesOfTheGeneratedMessageAndReadsThem() throws Exception {
    byte[] written = SchemaFrames.encode(ORDERS);
    assertArrayEquals(generated(ORDERS).toByteArray(), written);
    assertSameTypes(ORDERS, fromGenerated(Schema.parseFrom(written)));
    assertSameTypes(ORDERS, SchemaFrames.parse(CodedInputStream.newInstance(written)));
  }

  @Test
  void agreesWithTheGeneratedMessageOnRandomSchemas() throws Exception {
    Random random = new Random(14);
    for (int round = 0; round < 200; round++) {
      List<TypeSchema> schemas = new ArrayList<>();
      for (int t = 1 + random.nextInt(4); t > 0; t--) {
        List<TypeSchema.Field> fields = new ArrayList<>();
        for (int f = random.nextInt(20); f > 0; f--) {
          // Zero and negative numbers too: the encoding must agree even where read() refuses.
          int number = random.nextInt(5) == 0 ? random.nextInt() : random.nextInt(200);
          fields.add(new TypeSchema.Field(text(random), number, text(random)));
        }
        schemas.add(new TypeSchema(text(random), fields));
      }
      byte[] written = SchemaFrames.encode(schemas);
      assertArrayEquals(generated(schemas).toByteArray(), written);
      assertSameTypes(schemas, SchemaFrames.parse(CodedInputStream.newInstance(written)));
    }
  }

  private static String text(Random random) {
    int length = random.nextInt(3) == 0 ? 0 : random.nextInt(200);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      text.append(random.nextInt(4) == 0 ? (char) (0x80 + random.nextInt(0x700)) : (char) ('a' + random.nextInt(26)));
    }
    return text.toString();
  }

  @Test
  void skipsFieldsItDoesNotKnowAtEveryLevel() throws Exception {
    UnknownFieldSet unknown =
        UnknownFieldSet.newBuilder()
            .addField(15, UnknownFieldSet.Field.newBuilder().addVarint(1).addFixed64(2).build())
            .build();
    Schema.Builder newer = generated(ORDERS).toBuilder().setUnknownFields(unknown);
    newer.getTypesBuilder(0).setUnknownFields(unknown).getFieldsBuilder(1).setUnknownFields(unknown);
    assertSameTypes(ORDERS, SchemaFrames.parse(CodedInputStream.newInstance(newer.build().toByteArray())));
  }

  @Test
  void noTypesNoPayload() {
    assertNull(SchemaFrames.encode(List.of()));
  }

  @Test
  void aMalformedPayloadIsABadRequestNamingTheProblem() {
    byte[] truncated = SchemaFrames.encode(ORDERS);
    byte[] cut = java.util.Arrays.copyOf(truncated, truncated.length - 1);
    assertThrows(InvalidProtocolBufferException.class, () -> Schema.parseFrom(cut));
    ProtocolException e =
        assertThrows(
            ProtocolException.class,
            () -> SchemaFrames.read(ByteBufferPayload.of(cut), new PeerSchemas()));
    assertEquals(StatusCode.BAD_REQUEST, e.status());
    assertEquals(
        "malformed SCHEMA frame: While parsing a protocol message, the input ended unexpectedly in"
            + " the middle of a field.  This could mean either that the input has been truncated or"
            + " that an embedded message misreported its own length.",
        e.getMessage());
  }

  @Test
  void aRepeatedFieldNumberIsRefused() {
    byte[] payload =
        SchemaFrames.encode(
            List.of(
                new TypeSchema(
                    "Twice",
                    List.of(new TypeSchema.Field("a", 3, "string"), new TypeSchema.Field("b", 3, "int32")))));
    ProtocolException e =
        assertThrows(
            ProtocolException.class,
            () -> SchemaFrames.read(ByteBufferPayload.of(payload), new PeerSchemas()));
    assertEquals("SCHEMA of Twice has an invalid or repeated field number 3", e.getMessage());
  }
}
