package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.TypeSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Encodes the payload of SCHEMA frames (once per method, at start-up) and reads received ones,
 * checking everything a peer could get wrong before any of it is used. The payload is message
 * {@code Schema} of rpcx.proto, written and parsed by hand so that no generated class ties RPCX to
 * one protobuf-java runtime; {@code SchemaFramesTest} checks it against protoc's generated code.
 */
public final class SchemaFrames {
  /** Most types one connection may describe; a peer sending more is cut off. */
  public static final int MAX_TYPES_PER_CONNECTION = 4096;
  private static final int MAX_NAME_LENGTH = 512;

  // Field numbers of rpcx.proto: Schema, SchemaType, SchemaField.
  private static final int SCHEMA_TYPES = 1;
  private static final int TYPE_NAME = 1;
  private static final int TYPE_FIELDS = 2;
  private static final int FIELD_NAME = 1;
  private static final int FIELD_NUMBER = 2;
  private static final int FIELD_TYPE = 3;

  private SchemaFrames() {}

  /** The SCHEMA payload describing {@code schemas}, or {@code null} if there are none. */
  public static byte[] encode(List<TypeSchema> schemas) {
    if (schemas.isEmpty()) {
      return null;
    }
    int size = 0;
    for (TypeSchema schema : schemas) {
      size += lengthDelimitedSize(SCHEMA_TYPES, typeSize(schema));
    }
    byte[] payload = new byte[size];
    CodedOutputStream out = CodedOutputStream.newInstance(payload);
    try {
      for (TypeSchema schema : schemas) {
        out.writeTag(SCHEMA_TYPES, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(typeSize(schema));
        writeString(out, TYPE_NAME, schema.name());
        for (TypeSchema.Field field : schema.fields()) {
          out.writeTag(TYPE_FIELDS, WireFormat.WIRETYPE_LENGTH_DELIMITED);
          out.writeUInt32NoTag(fieldSize(field));
          writeString(out, FIELD_NAME, field.name());
          if (field.number() != 0) {
            out.writeUInt32(FIELD_NUMBER, field.number());
          }
          writeString(out, FIELD_TYPE, field.type());
        }
      }
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new IllegalStateException("SCHEMA payload of " + size + " bytes miscounted", e);
    }
    return payload;
  }

  private static int typeSize(TypeSchema schema) {
    int size = stringSize(TYPE_NAME, schema.name());
    for (TypeSchema.Field field : schema.fields()) {
      size += lengthDelimitedSize(TYPE_FIELDS, fieldSize(field));
    }
    return size;
  }

  private static int fieldSize(TypeSchema.Field field) {
    return stringSize(FIELD_NAME, field.name())
        + (field.number() != 0 ? CodedOutputStream.computeUInt32Size(FIELD_NUMBER, field.number()) : 0)
        + stringSize(FIELD_TYPE, field.type());
  }

  private static int lengthDelimitedSize(int number, int length) {
    return CodedOutputStream.computeTagSize(number)
        + CodedOutputStream.computeUInt32SizeNoTag(length)
        + length;
  }

  /** proto3 leaves out empty strings. */
  private static int stringSize(int number, String value) {
    return value.isEmpty() ? 0 : CodedOutputStream.computeStringSize(number, value);
  }

  private static void writeString(CodedOutputStream out, int number, String value)
      throws IOException {
    if (!value.isEmpty()) {
      out.writeString(number, value);
    }
  }

  /**
   * Reads a SCHEMA payload into {@code peer}.
   *
   * @throws ProtocolException if it is malformed or describes too many types
   */
  public static void read(Payload payload, PeerSchemas peer) throws ProtocolException {
    List<TypeSchema> types;
    try {
      types = parse(payload.input(0, payload.length()));
    } catch (IOException e) {
      throw invalid("malformed SCHEMA frame: " + e.getMessage());
    }
    for (TypeSchema type : types) {
      if (type.name().isEmpty() || type.name().length() > MAX_NAME_LENGTH) {
        throw invalid("SCHEMA frame with an empty or overlong type name");
      }
      Set<Integer> numbers = new HashSet<>();
      for (TypeSchema.Field field : type.fields()) {
        int number = field.number();
        if (number < 1 || number > TypeSchema.MAX_FIELD_NUMBER || !numbers.add(number)) {
          throw invalid(
              "SCHEMA of " + type.name() + " has an invalid or repeated field number "
                  + Integer.toUnsignedString(number));
        }
        if (field.name().length() > MAX_NAME_LENGTH || field.type().length() > MAX_NAME_LENGTH) {
          throw invalid("SCHEMA of " + type.name() + " has an overlong field name or type");
        }
      }
      if (!peer.put(type, MAX_TYPES_PER_CONNECTION)) {
        throw invalid("the peer described more than " + MAX_TYPES_PER_CONNECTION + " types");
      }
    }
  }

  /** The types of a {@code Schema} message, as sent: nothing is checked but the encoding. */
  static List<TypeSchema> parse(CodedInputStream in) throws IOException {
    List<TypeSchema> types = new ArrayList<>();
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return types;
      }
      if (tag == ((SCHEMA_TYPES << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        int oldLimit = in.pushLimit(in.readRawVarint32());
        types.add(parseType(in));
        in.popLimit(oldLimit);
      } else {
        Envelopes.skipField(in, tag);
      }
    }
  }

  private static TypeSchema parseType(CodedInputStream in) throws IOException {
    String name = "";
    List<TypeSchema.Field> fields = new ArrayList<>();
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return new TypeSchema(name, fields);
      }
      switch (tag) {
        case (TYPE_NAME << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          name = in.readStringRequireUtf8();
          break;
        case (TYPE_FIELDS << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          int oldLimit = in.pushLimit(in.readRawVarint32());
          fields.add(parseField(in));
          in.popLimit(oldLimit);
          break;
        default:
          Envelopes.skipField(in, tag);
      }
    }
  }

  private static TypeSchema.Field parseField(CodedInputStream in) throws IOException {
    String name = "";
    int number = 0;
    String type = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return new TypeSchema.Field(name, number, type);
      }
      switch (tag) {
        case (FIELD_NAME << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          name = in.readStringRequireUtf8();
          break;
        case (FIELD_NUMBER << 3) | WireFormat.WIRETYPE_VARINT:
          number = in.readUInt32();
          break;
        case (FIELD_TYPE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          type = in.readStringRequireUtf8();
          break;
        default:
          Envelopes.skipField(in, tag);
      }
    }
  }

  private static ProtocolException invalid(String message) {
    return new ProtocolException(ProtocolException.NO_REQUEST_ID, StatusCode.BAD_REQUEST, message, null);
  }
}
