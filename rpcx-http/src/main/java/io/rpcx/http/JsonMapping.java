package io.rpcx.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.core.reflection.TypeDescription;
import io.rpcx.http.internal.ServiceJson;
import java.io.IOException;
import java.util.List;

/**
 * The one mapping between JSON and RPCX values (docs/HTTP.md, "The JSON mapping"), for one
 * service: what a server's HTTP side reads and writes, and what the {@code rpcx} command line
 * does. It works from the service's description ({@link ServiceDescription}, as reflection gives
 * it) and RPCX's wire format, not from Java classes, so a tool needs none of the service's
 * classes and every JSON value means exactly the Java value the server's own codecs make of it.
 *
 * <p>Values are written as a user would: numbers (64-bit ones also as strings), strings, {@code
 * true}/{@code false}, objects for POJOs, records and maps, arrays for lists and sets, enums by
 * constant name, timestamps, durations and dates as ISO-8601 strings ({@code
 * "2024-05-01T10:00:00Z"}, {@code "PT1.5S"}, {@code "2024-05-01"}), bytes as base64, uuids and
 * decimals as strings, protobuf messages by their fields' names; {@code null} for absent. A
 * method's arguments are an array in parameter order, or an object by parameter name (names are
 * the Java ones when the service was compiled with {@code -parameters}, else {@code arg0}, ...).
 *
 * <pre>{@code
 * JsonMapping orders = JsonMapping.of(reflection.describe("orders").orElseThrow());
 * MethodDescription find = orders.service().method("findOrder");
 * byte[] request = orders.encodeArguments(find, JsonMapping.parse("[42]", "arguments"));
 * JsonNode order = orders.decode(reply, find.resultType());
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class JsonMapping {
  private final ServiceJson json;

  private JsonMapping(ServiceJson json) {
    this.json = json;
  }

  /** The mapping of {@code service}'s values; its protobuf messages, if any, cannot be written. */
  public static JsonMapping of(ServiceDescription service) {
    return new JsonMapping(ServiceJson.of(service));
  }

  /**
   * The mapping of {@code service}'s values, with the descriptors of its protobuf messages from
   * {@code fileDescriptorSet} (a serialized {@code FileDescriptorSet}, as reflection gives it;
   * empty if the service carries none).
   *
   * @throws IllegalArgumentException if {@code fileDescriptorSet} cannot be read
   */
  public static JsonMapping of(ServiceDescription service, byte[] fileDescriptorSet) {
    return new JsonMapping(ServiceJson.of(service, fileDescriptorSet));
  }

  /** The service this maps the values of. */
  public ServiceDescription service() {
    return json.service();
  }

  /**
   * Reads {@code json} exactly: decimals keep their digits, a duplicate key or anything after the
   * value is an error.
   *
   * @param what how the message names the text: {@code arguments}, {@code the request body}
   * @throws InvalidJsonException naming {@code what}, the line and column, and the problem
   */
  public static JsonNode parse(String json, String what) {
    return ServiceJson.parse(json, what);
  }

  /** As {@link #parse(String, String)}, from UTF-8 bytes. */
  public static JsonNode parse(byte[] json, String what) {
    return ServiceJson.parse(json, what);
  }

  /**
   * The Jackson mapper that reads as {@link #parse} does (exact decimals, no duplicate keys, nothing
   * after the value): for a tool that writes JSON the way it reads it. Shared: do not reconfigure.
   */
  public static ObjectMapper mapper() {
    return ServiceJson.mapper();
  }

  /**
   * The arguments of {@code method} in parameter order: {@code arguments} is an array of one value
   * per parameter, or an object of values by parameter name (a missing one is {@code null}).
   *
   * @throws InvalidJsonException if it is neither, has a wrong number of values, or names a
   *     parameter the method does not have; the message shows the method's signature
   */
  public List<JsonNode> arguments(MethodDescription method, JsonNode arguments) {
    return json.arguments(method, arguments);
  }

  /**
   * The value message of {@code value} as a value of type {@code type} (an RPCX type descriptor
   * such as {@code list<OrderInfo>}): what a client puts in a request's argument, or a server in
   * its reply.
   *
   * @param where how messages name the value: {@code argument 'order'}
   * @throws InvalidJsonException naming where, the field and the expected type, if it does not fit
   */
  public byte[] encode(JsonNode value, String type, String where) {
    return json.encode(value, type, where);
  }

  /**
   * {@code method}'s request message as gRPC lays it out (docs/GRPC.md, "Messages": field {@code i
   * + 1} holds argument {@code i}), from its arguments as JSON ({@link #arguments}).
   *
   * @throws InvalidJsonException if the arguments do not fit the method
   */
  public byte[] encodeArguments(MethodDescription method, JsonNode arguments) {
    return json.encodeArguments(method, arguments);
  }

  /**
   * The JSON of the value message {@code message} holding a value of type {@code type}: JSON
   * {@code null} for an absent value or {@code void}.
   *
   * @throws IOException if the message does not hold a value of that type
   */
  public JsonNode decode(byte[] message, String type) throws IOException {
    return json.decode(message, type);
  }

  /**
   * An example of a value of {@code type} as this mapping writes it (a stream's element for {@code
   * stream<T>}); what the console and the OpenAPI document show.
   */
  public JsonNode example(String type) {
    return json.example(type);
  }

  /** An example of {@code method}'s arguments: an array of one example per parameter. */
  public JsonNode exampleArguments(MethodDescription method) {
    return json.exampleArguments(method);
  }

  /**
   * The described types (POJOs, records, enums, protobuf messages) the values of {@code methods}
   * reach, through type arguments and fields, in the service's order: what a reader of their JSON
   * needs to know.
   */
  public List<TypeDescription> reachableTypes(List<MethodDescription> methods) {
    return json.reachableTypes(methods);
  }
}
