package io.rpcx.http.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.rpcx.core.reflection.FieldDescription;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ParameterDescription;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.core.reflection.TypeDescription;
import io.rpcx.http.InvalidJsonException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The one mapping between JSON and RPCX values for one service, behind the public {@code
 * io.rpcx.http.JsonMapping} (whose Javadoc describes it) and used directly by the HTTP side.
 * Immutable and thread-safe.
 */
public final class ServiceJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final ServiceDescription service;
  private final JsonWire wire;

  private ServiceJson(ServiceDescription service, JsonWire wire) {
    this.service = service;
    this.wire = wire;
  }

  /** The mapping of {@code service}'s values; its protobuf messages, if any, cannot be written. */
  public static ServiceJson of(ServiceDescription service) {
    return of(service, new byte[0]);
  }

  /**
   * The mapping of {@code service}'s values, with the descriptors of its protobuf messages from
   * {@code fileDescriptorSet} (a serialized {@code FileDescriptorSet}, as reflection gives it;
   * empty if the service carries none).
   *
   * @throws IllegalArgumentException if {@code fileDescriptorSet} cannot be read
   */
  public static ServiceJson of(ServiceDescription service, byte[] fileDescriptorSet) {
    Objects.requireNonNull(service, "service");
    boolean protobuf = false;
    for (TypeDescription type : service.types()) {
      protobuf |= type.kind() == TypeDescription.Kind.PROTOBUF;
    }
    return new ServiceJson(
        service,
        new JsonWire(
            service.types(),
            protobuf && fileDescriptorSet.length > 0 ? ProtobufJson.of(fileDescriptorSet) : null));
  }

  /** The service this maps the values of. */
  public ServiceDescription service() {
    return service;
  }

  /**
   * Reads {@code json} exactly: decimals keep their digits, a duplicate key or anything after the
   * value is an error.
   *
   * @param what how the message names the text: {@code arguments}, {@code the request body}
   * @throws InvalidJsonException naming {@code what}, the line and column, and the problem
   */
  public static JsonNode parse(String json, String what) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw invalid(e, what);
    }
  }

  /** {@link #parse(String, String)} of UTF-8 bytes; empty bytes are JSON {@code null}. */
  public static JsonNode parse(byte[] json, String what) {
    try {
      JsonNode node = MAPPER.readTree(json);
      return node == null || node.isMissingNode() ? JsonNodeFactory.instance.nullNode() : node;
    } catch (JsonProcessingException e) {
      throw invalid(e, what);
    } catch (IOException e) {
      throw new InvalidJsonException(what + ": cannot be read: " + e.getMessage());
    }
  }

  private static InvalidJsonException invalid(JsonProcessingException e, String what) {
    String location =
        e.getLocation() == null
            ? ""
            : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    String reason = e.getOriginalMessage();
    int detail = reason.indexOf(" (start marker");
    reason = (detail < 0 ? reason : reason.substring(0, detail)).lines().findFirst().orElse("");
    return new InvalidJsonException(what + ": not valid JSON" + location + ": " + reason);
  }

  /** Jackson's reader and writer of RPCX's JSON, as {@link #parse} reads it. */
  public static ObjectMapper mapper() {
    return MAPPER.copy();
  }

  /**
   * The arguments of {@code method} in parameter order: {@code arguments} is an array of one
   * value per parameter, or an object of values by parameter name (a missing one is {@code
   * null}).
   *
   * @throws InvalidJsonException if it is neither, has a wrong number of values, or names a
   *     parameter the method does not have; the message shows the method's signature
   */
  public List<JsonNode> arguments(MethodDescription method, JsonNode arguments) {
    List<ParameterDescription> parameters = method.parameters();
    String signature = service.name() + "/" + method.signature();
    List<JsonNode> ordered = new ArrayList<>();
    if (arguments.isArray()) {
      if (arguments.size() != parameters.size()) {
        throw new InvalidJsonException(
            service.name() + "/" + method.name() + " takes " + count(parameters.size())
                + ", got " + arguments.size() + " (" + signature + ")");
      }
      arguments.forEach(ordered::add);
      return ordered;
    }
    if (!arguments.isObject()) {
      throw new InvalidJsonException(
          "the arguments must be a JSON array of " + count(parameters.size())
              + " or an object of them by name, got " + JsonWire.shown(arguments) + " ("
              + signature + ")");
    }
    Map<String, JsonNode> byName = new HashMap<>();
    for (Map.Entry<String, JsonNode> entry : arguments.properties()) {
      byName.put(entry.getKey(), entry.getValue());
    }
    List<String> names = new ArrayList<>();
    for (ParameterDescription parameter : parameters) {
      names.add(parameter.name());
      JsonNode value = byName.remove(parameter.name());
      ordered.add(value == null ? JsonNodeFactory.instance.nullNode() : value);
    }
    if (!byName.isEmpty()) {
      String unknown = byName.keySet().iterator().next();
      throw new InvalidJsonException(
          service.name() + "/" + method.name() + " has no parameter '" + unknown
              + "' (its parameters: " + (names.isEmpty() ? "none" : String.join(", ", names))
              + "; " + signature + ")");
    }
    return ordered;
  }

  /**
   * The value message of {@code value} as a value of type {@code type} (an RPCX type descriptor
   * such as {@code list<OrderInfo>}): what a client puts in a request's argument, or a server
   * in its reply.
   *
   * @param where how messages name the value: {@code argument 'order'}
   * @throws InvalidJsonException naming where, the field and the expected type, if it does not fit
   */
  public byte[] encode(JsonNode value, String type, String where) {
    return wire.encode(value, TypeRef.parse(type), where);
  }

  /**
   * {@code method}'s request message as gRPC lays it out (docs/GRPC.md, "Messages": field {@code
   * i + 1} holds argument {@code i}), from its arguments as JSON ({@link #arguments}).
   *
   * @throws InvalidJsonException if the arguments do not fit the method
   */
  public byte[] encodeArguments(MethodDescription method, JsonNode arguments) {
    List<JsonNode> values = arguments(method, arguments);
    List<TypeRef> types = new ArrayList<>();
    List<String> wheres = new ArrayList<>();
    for (ParameterDescription parameter : method.parameters()) {
      types.add(TypeRef.parse(parameter.type()));
      wheres.add("argument '" + parameter.name() + "'");
    }
    return wire.encodeFields(types, values, wheres);
  }

  /**
   * The JSON of the value message {@code message} holding a value of type {@code type}: JSON
   * {@code null} for an absent value or {@code void}.
   *
   * @throws IOException if the message does not hold a value of that type
   */
  public JsonNode decode(byte[] message, String type) throws IOException {
    return wire.decode(message, TypeRef.parse(type));
  }

  /**
   * An example of a value of {@code type} as this mapping writes it (a stream's element for
   * {@code stream<T>}); what the console and the OpenAPI document show.
   */
  public JsonNode example(String type) {
    return wire.example(TypeRef.parse(type));
  }

  /** An example of {@code method}'s arguments: an array of one example per parameter. */
  public JsonNode exampleArguments(MethodDescription method) {
    var array = JsonNodeFactory.instance.arrayNode();
    for (ParameterDescription parameter : method.parameters()) {
      array.add(example(parameter.type()));
    }
    return array;
  }

  /**
   * The described types (POJOs, records, enums, protobuf messages) the values of {@code methods}
   * reach, through type arguments and fields, in the service's order: what a reader of their JSON
   * needs to know.
   */
  public List<TypeDescription> reachableTypes(List<MethodDescription> methods) {
    Set<String> names = new LinkedHashSet<>();
    for (MethodDescription method : methods) {
      for (ParameterDescription parameter : method.parameters()) {
        collect(TypeRef.parse(parameter.type()), names);
      }
      collect(TypeRef.parse(method.resultType()), names);
    }
    List<TypeDescription> types = new ArrayList<>();
    for (TypeDescription type : service.types()) {
      if (names.contains(type.name())) {
        types.add(type);
      }
    }
    return types;
  }

  private void collect(TypeRef type, Set<String> names) {
    for (TypeRef argument : type.arguments()) {
      collect(argument, names);
    }
    TypeDescription described = service.type(type.text());
    if (described != null && names.add(type.text())) {
      for (FieldDescription field : described.fields()) {
        collect(TypeRef.parse(field.type()), names);
      }
    }
  }

  private static String count(int arguments) {
    return arguments == 1 ? "1 argument" : arguments + " arguments";
  }
}
