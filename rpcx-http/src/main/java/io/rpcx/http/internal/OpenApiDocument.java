package io.rpcx.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rpcx.core.StatusCode;
import io.rpcx.core.reflection.FieldDescription;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ParameterDescription;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.core.reflection.TypeDescription;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The OpenAPI 3.1 document of a server's HTTP side (docs/HTTP.md, "OpenAPI"): a {@code POST}
 * operation per method callable over HTTP, its arguments as an array in parameter order or an
 * object by name, its reply (or, for a server stream, its lines of newline-delimited JSON), errors
 * as the error body; POJOs, records and enums as components, named by their type descriptors
 * ({@code Page<User>} becomes {@code Page_User_}, component names being letters, digits and {@code
 * ._-}). A value that is a Java reference may be null, as the mapping reads and writes it, and
 * its schema says so. Each operation also carries {@code x-rpcx}: the method as RPCX describes
 * it, for the console, and the document lists every method in {@code x-rpcx-services}, those HTTP
 * cannot call (stream arguments) too. Built once from the services' descriptions.
 */
final class OpenApiDocument {
  /** The types of Java's primitives (and their boxes). */
  private static final Set<String> PRIMITIVES =
      Set.of("bool", "int32", "int64", "char", "float", "double");

  private final ObjectNode root = HttpErrors.JSON.createObjectNode();
  private final ObjectNode paths = root.objectNode();
  /** Component schemas by component name, sorted. */
  private final Map<String, ObjectNode> components = new TreeMap<>();
  /** Component names by type descriptor. */
  private final Map<String, String> names = new HashMap<>();
  /**
   * The described types of every service by descriptor; where two services describe different
   * classes under one name, the first service's.
   */
  private final Map<String, TypeDescription> described = new HashMap<>();

  private OpenApiDocument() {}

  /** The document of the services these mappings map, as UTF-8 JSON. */
  static byte[] of(Collection<ServiceJson> services) {
    OpenApiDocument document = new OpenApiDocument();
    document.build(services);
    return HttpErrors.bytes(document.root);
  }

  private void build(Collection<ServiceJson> services) {
    root.put("openapi", "3.1.0");
    ObjectNode info = root.putObject("info");
    info.put("title", "RPCX services");
    info.put("version", "1");
    info.put(
        "description",
        "The published methods of an RPCX server, called over HTTP with JSON: POST"
            + " /<service>/<method> with the arguments as a JSON array in parameter order (or an"
            + " object by parameter name). Metadata travels in headers, the deadline in "
            + HttpJsonHandler.TIMEOUT_HEADER + ".");
    root.putArray("servers").addObject().put("url", "/");
    root.set("paths", paths);
    ArrayNode tags = root.putArray("tags");
    ArrayNode listed = root.putArray("x-rpcx-services");
    for (ServiceJson mapping : services) {
      for (TypeDescription type : mapping.service().types()) {
        described.putIfAbsent(type.name(), type);
      }
    }
    for (ServiceJson mapping : services) {
      ServiceDescription service = mapping.service();
      tags.addObject().put("name", service.name());
      ObjectNode serviceNode = listed.addObject();
      serviceNode.put("name", service.name());
      ArrayNode methods = serviceNode.putArray("methods");
      for (MethodDescription method : service.methods()) {
        ObjectNode rpcx = rpcx(mapping, service, method);
        methods.add(rpcx);
        if (rpcx.get("callable").booleanValue()) {
          paths.set("/" + service.name() + "/" + method.name(), operation(mapping, service, method, rpcx));
        }
      }
    }
    ObjectNode componentsNode = root.putObject("components");
    ObjectNode schemas = componentsNode.putObject("schemas");
    schemas.set("Error", errorSchema());
    components.forEach(schemas::set);
    ObjectNode responses = componentsNode.putObject("responses");
    errorResponse(responses.putObject("BadRequest"), "The request is no call of this method:"
        + " malformed JSON, a value of the wrong type, an unknown or a missing argument; the"
        + " message names the problem");
    errorResponse(responses.putObject("Error"), "The call failed: its RPCX status, a message,"
        + " and the class of what the implementation threw");
    ObjectNode bearer = componentsNode.putObject("securitySchemes").putObject("bearer");
    bearer.put("type", "http");
    bearer.put("scheme", "bearer");
    bearer.put("description", "Sent as the call's authorization metadata, for servers that"
        + " authenticate with ServerInterceptors.bearerToken");
    ArrayNode security = root.putArray("security");
    security.addObject();
    security.addObject().putArray("bearer");
  }

  /** The method as RPCX describes it: the console's view. */
  private ObjectNode rpcx(ServiceJson mapping, ServiceDescription service, MethodDescription method) {
    ObjectNode node = root.objectNode();
    node.put("service", service.name());
    node.put("method", method.name());
    node.put("signature", method.signature());
    ArrayNode parameters = node.putArray("parameters");
    for (ParameterDescription parameter : method.parameters()) {
      parameters.addObject().put("name", parameter.name()).put("type", parameter.type());
    }
    node.put("resultType", method.resultType());
    boolean stream = Signatures.isStream(method.resultType());
    node.put("serverStream", stream);
    boolean callable = !Signatures.takesStream(method);
    node.put("callable", callable);
    ArrayNode exceptions = node.putArray("declaredExceptions");
    method.declaredExceptions().forEach(exceptions::add);
    node.put("idempotent", method.idempotent());
    if (callable) {
      node.set("example", mapping.exampleArguments(method));
    }
    return node;
  }

  private ObjectNode operation(
      ServiceJson mapping, ServiceDescription service, MethodDescription method, ObjectNode rpcx) {
    ObjectNode post = root.objectNode();
    ObjectNode operation = post.putObject("post");
    operation.put("operationId", service.name() + "/" + method.name());
    operation.put("summary", method.signature());
    operation.putArray("tags").add(service.name());
    ObjectNode timeout = operation.putArray("parameters").addObject();
    timeout.put("name", HttpJsonHandler.TIMEOUT_HEADER);
    timeout.put("in", "header");
    timeout.put("required", false);
    timeout.put("description", "How long the caller waits: " + Timeouts.EXPECTED);
    timeout.putObject("schema").put("type", "string");

    ObjectNode body = operation.putObject("requestBody");
    body.put("required", !method.parameters().isEmpty());
    ObjectNode json = body.putObject("content").putObject("application/json");
    json.set("schema", arguments(method));
    json.set("example", rpcx.get("example"));

    ObjectNode responses = operation.putObject("responses");
    ObjectNode ok = responses.putObject("200");
    boolean stream = Signatures.isStream(method.resultType());
    if (stream) {
      String element = Signatures.element(method.resultType());
      ok.put("description", "The stream: one line of JSON per element, {\"result\": element}, and"
          + " a last line {\"error\": ...} if it fails after it started");
      ObjectNode line = root.objectNode().put("type", "object");
      ObjectNode properties = line.putObject("properties");
      properties.set("result", schema(element, false)); // a stream has no null elements
      properties.putObject("error").put("$ref", "#/components/schemas/Error");
      ObjectNode ndjson = ok.putObject("content").putObject("application/x-ndjson");
      ndjson.set("schema", line);
      ndjson.set("example", root.objectNode().set("result", mapping.example(element)));
    } else {
      ok.put("description", "The result, as JSON" + (method.resultType().equals("void")
          ? ": null, the method returns nothing" : ""));
      ObjectNode content = ok.putObject("content").putObject("application/json");
      content.set("schema", method.resultType().equals("void")
          ? root.objectNode().put("type", "null")
          : schema(method.resultType(), true));
      content.set("example", mapping.example(method.resultType()));
    }
    responses.putObject("400").put("$ref", "#/components/responses/BadRequest");
    errorResponse(responses.putObject("500"), "The implementation threw: status REMOTE_FAILURE,"
        + " exceptionClass its class." + (method.declaredExceptions().isEmpty() ? ""
            : " It declares " + String.join(", ", method.declaredExceptions()) + "."));
    responses.putObject("default").put("$ref", "#/components/responses/Error");
    operation.set("x-rpcx", rpcx);
    return post;
  }

  /** The request body: an array in parameter order, or an object by parameter name. */
  private ObjectNode arguments(MethodDescription method) {
    ObjectNode array = root.objectNode().put("type", "array");
    ArrayNode items = array.putArray("prefixItems");
    ObjectNode object = root.objectNode().put("type", "object");
    ObjectNode properties = object.putObject("properties");
    for (ParameterDescription parameter : method.parameters()) {
      items.add(schema(parameter.type(), true));
      properties.set(parameter.name(), schema(parameter.type(), true));
    }
    array.put("minItems", method.parameters().size());
    array.put("maxItems", method.parameters().size());
    object.put("additionalProperties", false);
    ObjectNode either = root.objectNode();
    either.putArray("oneOf").add(array).add(object);
    return either;
  }

  /**
   * The JSON Schema of a value of RPCX type {@code descriptor}; with {@code nullable}, {@code null}
   * too where the value is a Java reference. The scalars a primitive carries ({@code int32},
   * {@code bool}, ...) are shown without {@code null}, as the description does not tell {@code
   * int} from {@code Integer} and the primitive is the common case.
   */
  private ObjectNode schema(String descriptor, boolean nullable) {
    ObjectNode schema = nonNull(descriptor);
    if (!nullable || PRIMITIVES.contains(descriptor)) {
      return schema;
    }
    JsonNode type = schema.get("type");
    if (type == null) { // a reference to a component
      ObjectNode either = root.objectNode();
      either.putArray("anyOf").add(schema).addObject().put("type", "null");
      return either;
    }
    if (type.isArray()) {
      ((ArrayNode) type).add("null");
    } else {
      schema.putArray("type").add(type.asText()).add("null");
    }
    return schema;
  }

  private ObjectNode nonNull(String descriptor) {
    TypeRef type = TypeRef.parse(descriptor);
    ObjectNode schema = root.objectNode();
    switch (type.name()) {
      case "bool" -> schema.put("type", "boolean");
      case "int32" -> schema.put("type", "integer").put("format", "int32");
      case "int64" -> schema.put("type", "integer").put("format", "int64");
      case "char" -> schema.put("type", "string").put("minLength", 1).put("maxLength", 1);
      case "float" -> schema.put("type", "number").put("format", "float");
      case "double" -> schema.put("type", "number").put("format", "double");
      case "string" -> schema.put("type", "string");
      case "bytes" -> schema.put("type", "string").put("contentEncoding", "base64");
      case "timestamp" -> schema.put("type", "string").put("format", "date-time");
      case "duration" -> schema.put("type", "string").put("format", "duration");
      case "date" -> schema.put("type", "string").put("format", "date");
      case "datetime" -> schema.put("type", "string")
          .put("description", "an ISO-8601 local date and time, such as 2024-05-01T10:00:00");
      case "decimal" -> {
        schema.putArray("type").add("number").add("string");
        schema.put("description", "a decimal number; as a string it keeps every digit");
      }
      case "bigint" -> schema.put("type", "integer");
      case "uuid" -> schema.put("type", "string").put("format", "uuid");
      default -> {
        if (type.isList()) {
          schema.put("type", "array");
          schema.set("items", schema(type.argument(0).text(), true));
        } else if (type.isMap()) {
          schema.put("type", "object");
          schema.set("additionalProperties", schema(type.argument(1).text(), true));
        } else {
          schema.put("$ref", "#/components/schemas/" + component(descriptor));
        }
      }
    }
    return schema;
  }

  /** The name of the component of described type {@code descriptor}, made on first use. */
  private String component(String descriptor) {
    String known = names.get(descriptor);
    if (known != null) {
      return known;
    }
    String name = descriptor.replaceAll("[^A-Za-z0-9._-]", "_");
    while (components.containsKey(name) || name.equals("Error")) {
      name = name + "_";
    }
    names.put(descriptor, name);
    ObjectNode schema = root.objectNode();
    components.put(name, schema);
    TypeDescription type = described.get(descriptor);
    if (type == null) {
      schema.put("description", "RPCX type " + descriptor);
      return name;
    }
    schema.put("title", descriptor);
    switch (type.kind()) {
      case ENUM -> {
        schema.put("type", "string");
        ArrayNode constants = schema.putArray("enum");
        type.constants().forEach(constants::add);
      }
      case CLASS, RECORD -> {
        schema.put("type", "object");
        schema.put("description", (type.kind() == TypeDescription.Kind.RECORD ? "Record " : "Class ")
            + type.javaClass());
        ObjectNode properties = schema.putObject("properties");
        for (FieldDescription field : type.fields()) {
          properties.set(field.name(), schema(field.type(), true));
        }
        schema.put("additionalProperties", false);
      }
      default -> {
        schema.put("type", "object");
        schema.put("description", "Protobuf message " + descriptor + ", by its fields' JSON names");
      }
    }
    return name;
  }

  /** An error answer: {@code description} and the error body. */
  private static void errorResponse(ObjectNode response, String description) {
    response.put("description", description);
    response.putObject("content").putObject("application/json").putObject("schema")
        .put("$ref", "#/components/schemas/Error");
  }

  private static ObjectNode errorSchema() {
    ObjectNode schema = HttpErrors.JSON.createObjectNode();
    schema.put("type", "object");
    schema.putArray("required").add("status").add("message");
    ObjectNode properties = schema.putObject("properties");
    ArrayNode statuses = properties.putObject("status").put("type", "string").putArray("enum");
    for (StatusCode status : StatusCode.values()) {
      if (status != StatusCode.OK) {
        statuses.add(status.name());
      }
    }
    properties.putObject("message").put("type", "string");
    properties.putObject("exceptionClass").put("type", "string")
        .put("description", "The class of the exception the implementation threw");
    return schema;
  }
}
