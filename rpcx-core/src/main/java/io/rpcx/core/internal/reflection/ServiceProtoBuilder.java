package io.rpcx.core.internal.reflection;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.Descriptors;
import io.rpcx.core.reflection.FieldDescription;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ParameterDescription;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.core.reflection.TypeDescription;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Builds the {@code .proto} file of one service from its description: a message per POJO and
 * record with the field numbers RPCX uses, a message per collection and map shape, and a request
 * and a reply message per method. Every mapping follows docs/PROTOCOL.md, section 2.
 */
final class ServiceProtoBuilder {
  static final String VALUES_FILE = "rpcx/v1/values.proto";
  static final String VALUES_PACKAGE = "rpcx.v1";
  static final String TIMESTAMP_FILE = "google/protobuf/timestamp.proto";
  static final String DURATION_FILE = "google/protobuf/duration.proto";

  private final DescribedService service;
  private final String packageName;
  private final Map<String, TypeDescription> types = new HashMap<>();
  /** Generated messages by name: POJOs, records, collections and maps. */
  private final Map<String, ProtoMessage> messages = new TreeMap<>();
  /**
   * The message name of each RPCX type, unique in the file: {@code list<Item>} and a class named
   * {@code ListOfItem} would both want {@code ListOfItem}; the second gets {@code ListOfItem_}.
   */
  private final Map<String, String> nameOfDescriptor = new HashMap<>();
  /** Every top-level message name given out. */
  private final Set<String> taken = new TreeSet<>();
  private final Set<String> imports = new TreeSet<>();

  private ServiceProtoBuilder(DescribedService service) {
    this.service = service;
    this.packageName = packageName(service.description().name());
    for (TypeDescription type : service.description().types()) {
      types.put(type.name(), type);
    }
  }

  /** The file of {@code service}. */
  static ProtoFile build(DescribedService service) {
    return new ServiceProtoBuilder(service).file();
  }

  /** The protobuf package of a service: its name, each segment made a protobuf identifier. */
  static String packageName(String serviceName) {
    List<String> segments = new ArrayList<>();
    for (String segment : serviceName.split("\\.")) {
      segments.add(identifier(segment));
    }
    return String.join(".", segments);
  }

  /** The full name of a service's gRPC service when no name of its file collides with it. */
  static String grpcService(String serviceName) {
    return packageName(serviceName) + "." + capitalize(identifier(lastSegment(serviceName)));
  }

  /** The name of a service's file: its package as a path. */
  static String fileName(String serviceName) {
    return packageName(serviceName).replace('.', '/') + ".proto";
  }

  private ProtoFile file() {
    ServiceDescription description = service.description();
    for (MethodDescription method : description.methods()) {
      for (ParameterDescription parameter : method.parameters()) {
        typeOf(streamElement(parameter.type()));
      }
      if (!method.resultType().equals("void")) {
        typeOf(valueType(method));
      }
    }
    for (TypeDescription type : description.types()) {
      typeOf(type.name()); // the rest: the declared exceptions' (Error.exception_value)
    }
    List<ProtoMessage> methodMessages = new ArrayList<>();
    List<ProtoService.Rpc> rpcs = new ArrayList<>();
    Set<String> rpcNames = new TreeSet<>();
    for (MethodDescription method : description.methods()) {
      String base = capitalize(identifier(method.name()));
      ProtoMessage request = request(method, unique(base + "Request", taken));
      ProtoMessage reply = reply(method, unique(base + "Reply", taken));
      methodMessages.add(request);
      methodMessages.add(reply);
      boolean clientStreams = false;
      for (int i = 0; i < method.parameters().size(); i++) {
        ParameterDescription parameter = method.parameters().get(i);
        if (isStream(parameter.type())) {
          clientStreams = true;
          methodMessages.add(
              streamArgument(method, i, unique(base + "StreamArgument", taken)));
        }
      }
      rpcs.add(
          new ProtoService.Rpc(
              unique(identifier(method.name()), rpcNames),
              method.name(),
              request.name(),
              reply.name(),
              clientStreams,
              isStream(method),
              method.signature()));
    }
    List<ProtoMessage> all = new ArrayList<>(methodMessages);
    all.addAll(messages.values());
    String serviceName = unique(capitalize(identifier(lastSegment(description.name()))), taken);
    String grpcName = packageName + "." + serviceName;
    String header =
        "The RPCX service \"" + description.name() + "\", exported from its description.\n"
            + "gRPC: the service " + grpcName + " below, at /" + grpcName + "/<method>"
            + " (docs/GRPC.md).\n"
            + "RPCX's own protocol: a call is an rpcx.v1.RPCXRequest frame (rpcx/v1/rpcx.proto,"
            + " docs/PROTOCOL.md)\nwhose arguments carry the <Name>Argument messages of"
            + " <Method>Request, and whose reply's value is <Method>Reply.";
    ProtoService grpc =
        new ProtoService(
            serviceName,
            "The methods of the RPCX service \"" + description.name() + "\", as gRPC calls them.",
            rpcs);
    return new ProtoFile(
        fileName(description.name()),
        packageName,
        header,
        new ArrayList<>(imports),
        all,
        List.of(grpc));
  }

  private static String lastSegment(String serviceName) {
    return serviceName.substring(serviceName.lastIndexOf('.') + 1);
  }

  private ProtoMessage request(MethodDescription method, String name) {
    List<ProtoField> fields = new ArrayList<>();
    List<ProtoMessage> arguments = new ArrayList<>();
    Set<String> fieldNames = new TreeSet<>();
    Set<String> nestedNames = new TreeSet<>();
    boolean otherArguments = method.parameters().size() > 1;
    for (int i = 0; i < method.parameters().size(); i++) {
      ParameterDescription parameter = method.parameters().get(i);
      String field = unique(identifier(parameter.name()), fieldNames);
      if (isStream(parameter.type())) {
        String element = streamElement(parameter.type());
        fields.add(
            ProtoField.value(
                field,
                i + 1,
                typeOf(element),
                join(
                    "gRPC: one element of the stream argument (" + parameter.type() + ") in each"
                        + (otherArguments
                            ? " message after the first, which holds the other arguments"
                            : " message")
                        + ";\nRPCX sends its elements as <Method>StreamArgument messages",
                    note(element))));
        continue;
      }
      String argument = unique(capitalize(field) + "Argument", nestedNames);
      arguments.add(
          ProtoMessage.of(
              argument,
              "RPCX: arguments[" + i + "] is Argument{type: \"" + parameter.type()
                  + "\", value: this message}",
              List.of(
                  ProtoField.value("value", 1, typeOf(parameter.type()), note(parameter.type())))));
      fields.add(
          ProtoField.value(
              field,
              i + 1,
              typeOf(parameter.type()),
              join("argument " + i + ": " + parameter.type(), note(parameter.type()))));
    }
    String comment =
        method.signature()
            + "\ngRPC: the request message. RPCX: RPCXRequest{service: \""
            + service.description().name()
            + "\", method: \""
            + method.name()
            + "\", arguments: one Argument per argument, in order}"
            + (method.idempotent() ? "\nIdempotent: a client may retry it." : "")
            + (method.timeoutMillis() > 0 ? "\nTimeout: " + method.timeoutMillis() + " ms." : "");
    return new ProtoMessage(name, comment, fields, arguments, false);
  }

  /**
   * The message of each element of stream argument {@code index} of {@code method}: what a client
   * sends in {@code STREAM_MESSAGE} frames after the request (docs/PROTOCOL.md, section 5).
   */
  private ProtoMessage streamArgument(MethodDescription method, int index, String name) {
    ParameterDescription parameter = method.parameters().get(index);
    String element = streamElement(parameter.type());
    String comment =
        "RPCX: StreamMessage.value of the stream argument " + parameter.name() + " ("
            + parameter.type() + ") of " + service.description().name() + "/" + method.name()
            + ":\nits Argument in the request is {type: \"" + parameter.type() + "\"} without a"
            + " value; the client then sends\nSTREAM_MESSAGE frames as the server's STREAM_CREDIT"
            + " allows, each carrying one element in field 1\n(absent when it is null), then"
            + " STREAM_END (docs/PROTOCOL.md, section 5).";
    return ProtoMessage.of(
        name, comment, List.of(ProtoField.value("value", 1, typeOf(element), note(element))));
  }

  /**
   * The type of the value a reply (or each message of a server stream) carries: the result type,
   * or {@code T} of {@code stream<T>}.
   */
  private static String valueType(MethodDescription method) {
    return streamElement(method.resultType());
  }

  private static boolean isStream(MethodDescription method) {
    return isStream(method.resultType());
  }

  private static boolean isStream(String type) {
    return type.startsWith("stream<") && type.endsWith(">");
  }

  /** {@code T} of {@code stream<T>}; any other type as it is. */
  private static String streamElement(String type) {
    return isStream(type) ? type.substring("stream<".length(), type.length() - 1) : type;
  }

  private ProtoMessage reply(MethodDescription method, String name) {
    if (isStream(method)) {
      String element = valueType(method);
      String comment =
          "The stream of " + service.description().name() + "/" + method.name()
              + (method.parameters().stream().anyMatch(p -> isStream(p.type()))
                  ? ", a bidirectional stream ("
                  : ", a server stream (")
              + method.resultType() + "): one element in each message, in field 1 (absent"
              + " when it is null).\nRPCX: StreamMessage.value of each STREAM_MESSAGE, then"
              + " STREAM_END (docs/PROTOCOL.md, section 5)."
              + (method.declaredExceptions().isEmpty()
                  ? ""
                  : "\nDeclared failures (REMOTE_FAILURE, the rpcx-exception-class trailer or"
                      + " StreamEnd.error.exception_class;\ntheir fields in exception_value,"
                      + " field 1 holding the message named as the class): "
                      + String.join(", ", method.declaredExceptions()));
      return ProtoMessage.of(
          name, comment, List.of(ProtoField.value("value", 1, typeOf(element), note(element))));
    }
    String comment =
        "The reply of " + service.description().name() + "/" + method.name()
            + (method.resultType().equals("void")
                ? ": always empty (the method returns nothing)."
                : ": field 1 holds the result, absent when it is null.")
            + "\nRPCX: RPCXReply.value."
            + (method.declaredExceptions().isEmpty()
                ? ""
                : "\nDeclared failures (REMOTE_FAILURE, the rpcx-exception-class trailer or"
                    + " Error.exception_class;\ntheir fields in Error.exception_value, field 1"
                    + " holding the message named as the class): "
                    + String.join(", ", method.declaredExceptions()));
    List<ProtoField> fields =
        method.resultType().equals("void")
            ? List.of()
            : List.of(
                ProtoField.value(
                    "value", 1, typeOf(method.resultType()), note(method.resultType())));
    return ProtoMessage.of(name, comment, fields);
  }

  /** The protobuf type that carries a value of RPCX type {@code descriptor}, generating messages as needed. */
  private ProtoType typeOf(String descriptor) {
    switch (descriptor) {
      case "bool":
        return ProtoType.scalar(Type.TYPE_BOOL);
      case "int32":
        return ProtoType.scalar(Type.TYPE_INT32);
      case "int64":
        return ProtoType.scalar(Type.TYPE_INT64);
      case "char":
        return ProtoType.scalar(Type.TYPE_UINT32);
      case "float":
        return ProtoType.scalar(Type.TYPE_FLOAT);
      case "double":
        return ProtoType.scalar(Type.TYPE_DOUBLE);
      case "string":
      case "decimal":
        return ProtoType.scalar(Type.TYPE_STRING);
      case "bytes":
      case "bigint":
      case "uuid":
        return ProtoType.scalar(Type.TYPE_BYTES);
      case "timestamp":
        imports.add(TIMESTAMP_FILE);
        return ProtoType.message("google.protobuf.Timestamp", TIMESTAMP_FILE);
      case "duration":
        imports.add(DURATION_FILE);
        return ProtoType.message("google.protobuf.Duration", DURATION_FILE);
      case "date":
        imports.add(VALUES_FILE);
        return ProtoType.message(VALUES_PACKAGE + ".Date", VALUES_FILE);
      case "datetime":
        imports.add(VALUES_FILE);
        return ProtoType.message(VALUES_PACKAGE + ".DateTime", VALUES_FILE);
      default:
        break;
    }
    List<String> arguments = TypeDescriptors.arguments(descriptor);
    if (descriptor.startsWith("list<")) {
      return container(descriptor, () -> listMessage(descriptor, arguments.get(0)));
    }
    if (descriptor.startsWith("map<")) {
      return container(descriptor, () -> mapMessage(descriptor, arguments.get(0), arguments.get(1)));
    }
    TypeDescription type = types.get(descriptor);
    if (type == null) {
      throw new IllegalStateException(
          "cannot export " + service.description().name() + ": it uses type " + descriptor
              + ", which its description does not describe");
    }
    switch (type.kind()) {
      case ENUM:
        return ProtoType.scalar(Type.TYPE_STRING);
      case PROTOBUF:
        Descriptors.Descriptor message = service.protobufMessages().get(descriptor);
        if (message == null) {
          // A lite message has no descriptor: its bytes are all a description can promise.
          return ProtoType.scalar(Type.TYPE_BYTES);
        }
        imports.add(message.getFile().getName());
        return ProtoType.message(message.getFullName(), message.getFile().getName());
      default:
        return container(descriptor, () -> pojoMessage(descriptor, type));
    }
  }

  /** The message named after {@code descriptor}, built by {@code builder} the first time. */
  private ProtoType container(String descriptor, java.util.function.Supplier<ProtoMessage> builder) {
    String name = nameOfDescriptor.get(descriptor);
    if (name == null) {
      name = unique(messageName(descriptor), taken);
      // Named before building, so a type that reaches itself (a tree of nodes) ends here.
      nameOfDescriptor.put(descriptor, name);
      messages.put(name, builder.get());
    }
    return ProtoType.message(packageName + "." + name, null);
  }

  private ProtoMessage listMessage(String descriptor, String element) {
    return ProtoMessage.of(
        nameOfDescriptor.get(descriptor),
        "RPCX " + descriptor + ": the non-null elements in order, then the positions of null ones.",
        List.of(
            ProtoField.of("values", 1, typeOf(element), true, note(element)),
            ProtoField.of("nullPositions", 2, ProtoType.scalar(Type.TYPE_UINT32), true, null)));
  }

  private ProtoMessage mapMessage(String descriptor, String key, String value) {
    String name = nameOfDescriptor.get(descriptor);
    ProtoType keyType = typeOf(key);
    ProtoType valueType = typeOf(value);
    String comment = "RPCX " + descriptor + ": one entry per mapping; an absent key or value is null.";
    String entryNote = join(note(key) == null ? null : "key: " + note(key), note(value) == null ? null : "value: " + note(value));
    if (keyType.isMapKey()) {
      ProtoMessage entry =
          new ProtoMessage(
              "EntriesEntry",
              null,
              List.of(ProtoField.of("key", 1, keyType, false, null), ProtoField.of("value", 2, valueType, false, null)),
              List.of(),
              true);
      return ProtoMessage.of(name, comment, List.of(ProtoField.map("entries", 1, entry, entryNote)));
    }
    ProtoMessage entry =
        ProtoMessage.of(
            "Entry",
            null,
            List.of(
                ProtoField.of("key", 1, keyType, false, note(key)),
                ProtoField.of("value", 2, valueType, false, note(value))));
    return new ProtoMessage(
        name,
        comment,
        List.of(ProtoField.of("entries", 1, ProtoType.message(packageName + "." + name + ".Entry", null), true, null)),
        List.of(entry),
        false);
  }

  private ProtoMessage pojoMessage(String descriptor, TypeDescription type) {
    List<ProtoField> fields = new ArrayList<>();
    Set<String> fieldNames = new TreeSet<>();
    for (FieldDescription field : type.fields()) {
      fields.add(
          ProtoField.of(
              unique(identifier(field.name()), fieldNames),
              field.number(),
              typeOf(field.type()),
              false,
              note(field.type())));
    }
    return ProtoMessage.of(
        nameOfDescriptor.get(descriptor),
        "RPCX " + descriptor + ": " + type.javaClass() + " (" + type.kind().name().toLowerCase(java.util.Locale.ROOT) + ")",
        fields);
  }

  /** What a reader of the file needs to know beyond the protobuf type, or {@code null}. */
  private String note(String descriptor) {
    switch (descriptor) {
      case "char":
        return "char: one UTF-16 code unit";
      case "decimal":
        return "decimal: the text of Java's BigDecimal.toString()";
      case "bigint":
        return "bigint: big-endian two's-complement bytes";
      case "uuid":
        return "uuid: 16 bytes, the most significant 8 first, each half big-endian";
      default:
        break;
    }
    TypeDescription type = types.get(descriptor);
    if (type != null && type.kind() == TypeDescription.Kind.ENUM) {
      return descriptor + " (enum), the name of one of: " + String.join(", ", type.constants());
    }
    if (type != null && type.kind() == TypeDescription.Kind.PROTOBUF && !service.protobufMessages().containsKey(descriptor)) {
      return descriptor + ": a protobuf lite message, " + type.javaClass();
    }
    return null;
  }

  private static String join(String first, String second) {
    if (first == null) {
      return second;
    }
    return second == null ? first : first + "; " + second;
  }

  /** A message name for an RPCX type: {@code list<OrderItem>} is {@code ListOfOrderItem}, {@code Page<User>} {@code PageOfUser}. */
  static String messageName(String descriptor) {
    List<String> arguments = TypeDescriptors.arguments(descriptor);
    String head = TypeDescriptors.head(descriptor);
    if (head.equals("map")) {
      return "MapOf" + messageName(arguments.get(0)) + "To" + messageName(arguments.get(1));
    }
    int dot = head.lastIndexOf('.');
    StringBuilder name = new StringBuilder(capitalize(identifier(dot < 0 ? head : head.substring(dot + 1))));
    for (int i = 0; i < arguments.size(); i++) {
      name.append(i == 0 ? "Of" : "And").append(messageName(arguments.get(i)));
    }
    return name.toString();
  }

  private static String unique(String name, Set<String> taken) {
    String candidate = name;
    while (!taken.add(candidate)) {
      candidate = candidate + "_";
    }
    return candidate;
  }

  /** {@code text} as a protobuf identifier: letters, digits and underscores, not starting with a digit. */
  static String identifier(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      out.append((c < 128 && Character.isLetterOrDigit(c)) || c == '_' ? c : '_');
    }
    if (out.length() == 0 || Character.isDigit(out.charAt(0))) {
      out.insert(0, '_');
    }
    return out.toString();
  }

  private static String capitalize(String text) {
    return Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
