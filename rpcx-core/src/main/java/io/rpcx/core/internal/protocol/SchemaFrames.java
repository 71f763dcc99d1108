package io.rpcx.core.internal.protocol;

import java.io.IOException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.TypeSchema;
import io.rpcx.core.internal.protocol.proto.Schema;
import io.rpcx.core.internal.protocol.proto.SchemaField;
import io.rpcx.core.internal.protocol.proto.SchemaType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Encodes the payload of SCHEMA frames (once per method, at start-up) and reads received ones,
 * checking everything a peer could get wrong before any of it is used.
 */
public final class SchemaFrames {
  /** Most types one connection may describe; a peer sending more is cut off. */
  public static final int MAX_TYPES_PER_CONNECTION = 4096;
  private static final int MAX_NAME_LENGTH = 512;

  private SchemaFrames() {}

  /** The SCHEMA payload describing {@code schemas}, or {@code null} if there are none. */
  public static byte[] encode(List<TypeSchema> schemas) {
    if (schemas.isEmpty()) {
      return null;
    }
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
    return message.build().toByteArray();
  }

  /**
   * Reads a SCHEMA payload into {@code peer}.
   *
   * @throws ProtocolException if it is malformed or describes too many types
   */
  public static void read(Payload payload, PeerSchemas peer) throws ProtocolException {
    Schema schema;
    try {
      schema = Schema.parseFrom(payload.input(0, payload.length()));
    } catch (IOException e) {
      throw invalid("malformed SCHEMA frame: " + e.getMessage());
    }
    for (SchemaType type : schema.getTypesList()) {
      if (type.getName().isEmpty() || type.getName().length() > MAX_NAME_LENGTH) {
        throw invalid("SCHEMA frame with an empty or overlong type name");
      }
      List<TypeSchema.Field> fields = new ArrayList<>(type.getFieldsCount());
      Set<Integer> numbers = new HashSet<>();
      for (SchemaField field : type.getFieldsList()) {
        int number = field.getNumber();
        if (number < 1 || number > TypeSchema.MAX_FIELD_NUMBER || !numbers.add(number)) {
          throw invalid(
              "SCHEMA of " + type.getName() + " has an invalid or repeated field number "
                  + Integer.toUnsignedString(number));
        }
        if (field.getName().length() > MAX_NAME_LENGTH
            || field.getType().length() > MAX_NAME_LENGTH) {
          throw invalid("SCHEMA of " + type.getName() + " has an overlong field name or type");
        }
        fields.add(new TypeSchema.Field(field.getName(), number, field.getType()));
      }
      if (!peer.put(new TypeSchema(type.getName(), fields), MAX_TYPES_PER_CONNECTION)) {
        throw invalid("the peer described more than " + MAX_TYPES_PER_CONNECTION + " types");
      }
    }
  }

  private static ProtocolException invalid(String message) {
    return new ProtocolException(ProtocolException.NO_REQUEST_ID, StatusCode.BAD_REQUEST, message, null);
  }
}
