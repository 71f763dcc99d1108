package io.rpcx.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.rpcx.http.InvalidJsonException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Protobuf messages a service carries as themselves, converted from and to JSON with the message
 * descriptors of the server's {@code FileDescriptorSet}: fields by their JSON name (lowerCamelCase)
 * or proto name, enums by value name, bytes as base64, maps as objects, repeated fields as arrays.
 * Immutable once built; thread-safe.
 */
public final class ProtobufJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Map<String, Descriptor> messages;

  private ProtobufJson(Map<String, Descriptor> messages) {
    this.messages = Map.copyOf(messages);
  }

  /** The messages of a serialized {@code FileDescriptorSet}; none for an empty one. */
  public static ProtobufJson of(byte[] fileDescriptorSet) {
    Map<String, Descriptor> messages = new HashMap<>();
    try {
      FileDescriptorSet set = FileDescriptorSet.parseFrom(fileDescriptorSet);
      Map<String, FileDescriptorProto> protos = new HashMap<>();
      for (FileDescriptorProto file : set.getFileList()) {
        protos.put(file.getName(), file);
      }
      Map<String, FileDescriptor> built = new HashMap<>();
      for (FileDescriptorProto file : set.getFileList()) {
        for (Descriptor message : build(file.getName(), protos, built).getMessageTypes()) {
          collect(message, messages);
        }
      }
    } catch (InvalidProtocolBufferException | DescriptorValidationException e) {
      throw new IllegalArgumentException(
          "the server's FileDescriptorSet cannot be read: " + e.getMessage());
    }
    return new ProtobufJson(messages);
  }

  private static FileDescriptor build(
      String name, Map<String, FileDescriptorProto> protos, Map<String, FileDescriptor> built)
      throws DescriptorValidationException {
    FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    FileDescriptorProto proto = protos.get(name);
    if (proto == null) {
      throw new IllegalArgumentException(
          "the server's FileDescriptorSet lacks " + name + ", which another of its files imports");
    }
    List<FileDescriptor> dependencies = new ArrayList<>();
    for (String dependency : proto.getDependencyList()) {
      dependencies.add(build(dependency, protos, built));
    }
    FileDescriptor file =
        FileDescriptor.buildFrom(proto, dependencies.toArray(new FileDescriptor[0]));
    built.put(name, file);
    return file;
  }

  private static void collect(Descriptor message, Map<String, Descriptor> messages) {
    messages.put(message.getFullName(), message);
    for (Descriptor nested : message.getNestedTypes()) {
      collect(nested, messages);
    }
  }

  /** The descriptor of the message {@code fullName}, or {@code null}. */
  public Descriptor message(String fullName) {
    return messages.get(fullName);
  }

  /** The message {@code value} stands for. */
  static Message fromJson(JsonNode value, Descriptor type, JsonWire.Where where) {
    if (!value.isObject()) {
      throw JsonWire.expected(where, type.getFullName() + " (a JSON object)", value);
    }
    DynamicMessage.Builder message = DynamicMessage.newBuilder(type);
    Iterator<Map.Entry<String, JsonNode>> entries = value.properties().iterator();
    while (entries.hasNext()) {
      Map.Entry<String, JsonNode> entry = entries.next();
      FieldDescriptor field = field(type, entry.getKey());
      JsonWire.Where at = where.field(entry.getKey());
      if (field == null) {
        List<String> names = new ArrayList<>();
        for (FieldDescriptor each : type.getFields()) {
          names.add(each.getJsonName());
        }
        throw new InvalidJsonException(at + ": " + type.getFullName() + " has no field '" + entry.getKey()
            + "' (its fields: " + String.join(", ", names) + ")");
      }
      JsonNode fieldValue = entry.getValue();
      if (fieldValue.isNull()) {
        continue;
      }
      if (field.isMapField()) {
        if (!fieldValue.isObject()) {
          throw JsonWire.expected(at, "a map (a JSON object)", fieldValue);
        }
        Descriptor entryType = field.getMessageType();
        FieldDescriptor keyField = entryType.findFieldByNumber(1);
        FieldDescriptor valueField = entryType.findFieldByNumber(2);
        Iterator<Map.Entry<String, JsonNode>> pairs = fieldValue.properties().iterator();
        while (pairs.hasNext()) {
          Map.Entry<String, JsonNode> pair = pairs.next();
          JsonWire.Where keyAt = at.key(pair.getKey());
          JsonNode key = keyField.getJavaType() == FieldDescriptor.JavaType.STRING
              ? NODES.textNode(pair.getKey())
              : JsonWire.mapKey(pair.getKey(), rpcxName(keyField.getJavaType()));
          message.addRepeatedField(field,
              DynamicMessage.newBuilder(entryType)
                  .setField(keyField, single(keyField, key, keyAt))
                  .setField(valueField, single(valueField, pair.getValue(), keyAt))
                  .build());
        }
      } else if (field.isRepeated()) {
        if (!fieldValue.isArray()) {
          throw JsonWire.expected(at, "a repeated field (a JSON array)", fieldValue);
        }
        for (int i = 0; i < fieldValue.size(); i++) {
          message.addRepeatedField(field, single(field, fieldValue.get(i), at.index(i)));
        }
      } else {
        message.setField(field, single(field, fieldValue, at));
      }
    }
    return message.build();
  }

  /** The RPCX descriptor a map key of this type is read as. */
  private static String rpcxName(FieldDescriptor.JavaType type) {
    switch (type) {
      case INT:
        return "int32";
      case LONG:
        return "int64";
      case BOOLEAN:
        return "bool";
      default:
        return "string";
    }
  }

  private static FieldDescriptor field(Descriptor type, String name) {
    FieldDescriptor field = type.findFieldByName(name);
    if (field != null) {
      return field;
    }
    for (FieldDescriptor each : type.getFields()) {
      if (each.getJsonName().equals(name)) {
        return each;
      }
    }
    return null;
  }

  private static Object single(FieldDescriptor field, JsonNode value, JsonWire.Where where) {
    switch (field.getJavaType()) {
      case INT:
        return JsonWire.int32(value, where);
      case LONG:
        return JsonWire.int64(value, where);
      case FLOAT:
        return (float) JsonWire.floating(value, "float", where);
      case DOUBLE:
        return JsonWire.floating(value, "double", where);
      case BOOLEAN:
        return JsonWire.bool(value, where);
      case STRING:
        return JsonWire.text(value, "string", where);
      case BYTE_STRING:
        return ByteString.copyFrom(JsonWire.base64(value, where));
      case ENUM: {
        EnumValueDescriptor constant =
            value.isTextual() ? field.getEnumType().findValueByName(value.asText()) : null;
        if (constant == null) {
          List<String> names = new ArrayList<>();
          for (EnumValueDescriptor each : field.getEnumType().getValues()) {
            names.add(each.getName());
          }
          throw JsonWire.expected(where, field.getEnumType().getFullName() + " (one of "
              + String.join(", ", names) + ")", value);
        }
        return constant;
      }
      default:
        return fromJson(value, field.getMessageType(), where);
    }
  }

  /** The JSON of {@code message}: its fields that are set, by JSON name, in field order. */
  static ObjectNode toJson(Message message) {
    ObjectNode object = NODES.objectNode();
    for (Map.Entry<FieldDescriptor, Object> entry : message.getAllFields().entrySet()) {
      FieldDescriptor field = entry.getKey();
      if (field.isMapField()) {
        ObjectNode map = NODES.objectNode();
        for (Object item : (List<?>) entry.getValue()) {
          Message pair = (Message) item;
          Descriptor entryType = field.getMessageType();
          Object key = pair.getField(entryType.findFieldByNumber(1));
          FieldDescriptor valueField = entryType.findFieldByNumber(2);
          map.set(String.valueOf(key), single(valueField, pair.getField(valueField)));
        }
        object.set(field.getJsonName(), map);
      } else if (field.isRepeated()) {
        ArrayNode array = NODES.arrayNode();
        for (Object item : (List<?>) entry.getValue()) {
          array.add(single(field, item));
        }
        object.set(field.getJsonName(), array);
      } else {
        object.set(field.getJsonName(), single(field, entry.getValue()));
      }
    }
    return object;
  }

  private static JsonNode single(FieldDescriptor field, Object value) {
    switch (field.getJavaType()) {
      case INT:
        return NODES.numberNode((Integer) value);
      case LONG:
        return NODES.numberNode((Long) value);
      case FLOAT:
        return NODES.numberNode((Float) value);
      case DOUBLE:
        return NODES.numberNode((Double) value);
      case BOOLEAN:
        return NODES.booleanNode((Boolean) value);
      case STRING:
        return NODES.textNode((String) value);
      case BYTE_STRING:
        return NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
      case ENUM:
        return NODES.textNode(((EnumValueDescriptor) value).getName());
      default:
        return toJson((Message) value);
    }
  }
}
