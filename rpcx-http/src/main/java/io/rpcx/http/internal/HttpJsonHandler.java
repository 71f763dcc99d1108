package io.rpcx.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.core.reflection.TypeDescription;
import io.rpcx.http.InvalidJsonException;
import io.rpcx.server.http.HttpExchange;
import io.rpcx.server.http.HttpHandler;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Flow;
import java.util.function.Supplier;

/**
 * The HTTP side of one server (docs/HTTP.md): routes each request to a call of a published method
 * ({@code POST /<service>/<method>}, JSON in and out), the OpenAPI document or the console, and
 * answers what fits none with a JSON error naming the problem. Built once when the server starts,
 * with every service's {@link ServiceJson}; immutable and thread-safe. {@link #handle} runs on a
 * network thread and does only routing and header checks there: the JSON is read where the call
 * runs (a worker, for a method that may block), after the server's interceptors let it through.
 */
public final class HttpJsonHandler implements HttpHandler {
  /** The header of a call's deadline: {@code 500ms}, {@code 10s}, {@code PT30S}. */
  static final String TIMEOUT_HEADER = "rpcx-timeout";
  static final String OPENAPI_PATH = "/openapi.json";
  static final String REFLECTION = ReflectionService.NAME;

  /**
   * Headers that are HTTP's own and not a call's metadata: framing, connection management,
   * content negotiation, and the deadline header. Every other header is metadata (credentials,
   * trace context, anything an interceptor reads), as gRPC's request headers are.
   */
  private static final Set<String> NOT_METADATA =
      Set.of(
          "host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
          "te", "trailer", "content-length", "content-type", "expect", "accept",
          "accept-encoding", "http2-settings", TIMEOUT_HEADER);

  /** A method as the HTTP side calls it. */
  private record Route(ServiceJson mapping, MethodDescription method, boolean stream, String resultType) {}

  private final Map<String, Map<String, Route>> services;
  private final byte[] openApi;
  private final ConsoleAssets console;

  private HttpJsonHandler(
      Map<String, Map<String, Route>> services, byte[] openApi, ConsoleAssets console) {
    this.services = services;
    this.openApi = openApi;
    this.console = console;
  }

  /**
   * The handler of a server publishing {@code services}, with the document and the console if
   * asked for.
   *
   * @throws IllegalStateException if the document or the console is asked for and the server
   *     does not publish its reflection service
   */
  public static HttpJsonHandler start(
      ReflectionService services, boolean openApi, boolean console, String consolePath) {
    List<String> names = services.listServices();
    if ((openApi || console) && !names.contains(REFLECTION)) {
      throw new IllegalStateException(
          (openApi && console ? "openApi(true) and console(true) show" : openApi
              ? "openApi(true) shows"
              : "console(true) shows")
              + " the server's services to callers its interceptors let call the reflection"
              + " service (" + REFLECTION + "), which this server does not publish: build it"
              + " with reflection(true)");
    }
    Map<String, Map<String, Route>> routes = new HashMap<>();
    Map<String, ServiceJson> mappings = new LinkedHashMap<>();
    for (String name : names) {
      ServiceDescription service = services.describe(name).orElseThrow();
      boolean protobuf =
          service.types().stream().anyMatch(t -> t.kind() == TypeDescription.Kind.PROTOBUF);
      ServiceJson mapping =
          protobuf
              ? ServiceJson.of(service, services.fileDescriptorSet(name))
              : ServiceJson.of(service);
      mappings.put(name, mapping);
      Map<String, Route> methods = new HashMap<>();
      for (MethodDescription method : service.methods()) {
        if (!Signatures.takesStream(method)) {
          boolean stream = Signatures.isStream(method.resultType());
          methods.put(
              method.name(),
              new Route(
                  mapping, method, stream,
                  stream ? Signatures.element(method.resultType()) : method.resultType()));
        }
      }
      routes.put(name, Map.copyOf(methods));
    }
    byte[] document = openApi || console ? OpenApiDocument.of(mappings.values()) : null;
    return new HttpJsonHandler(
        Map.copyOf(routes),
        document,
        console ? ConsoleAssets.load(consolePath) : null);
  }

  @Override
  public void handle(HttpExchange exchange) {
    String path = exchange.path();
    if (openApi != null && path.equals(OPENAPI_PATH)) {
      if (!isRead(exchange)) {
        methodNotAllowed(exchange, "GET");
        return;
      }
      guarded(exchange, () ->
          exchange.respond(200, HttpErrors.JSON_TYPE, openApi));
      return;
    }
    if (console != null && console.serves(path)) {
      if (!isRead(exchange)) {
        methodNotAllowed(exchange, "GET");
        return;
      }
      console.respond(exchange, path);
      return;
    }
    call(exchange, path);
  }

  private static boolean isRead(HttpExchange exchange) {
    return exchange.method().equals("GET") || exchange.method().equals("HEAD");
  }

  /** {@code POST /<service>/<method>}: the call, or a JSON error naming what is wrong. */
  private void call(HttpExchange exchange, String path) {
    String decoded;
    try {
      decoded = URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      notFound(exchange, "'" + path + "' is not a valid path: " + e.getMessage());
      return;
    }
    int slash = decoded.lastIndexOf('/');
    if (!decoded.startsWith("/") || slash <= 1 || slash == decoded.length() - 1) {
      notFound(exchange, "nothing is served at " + path + ": a method is called with POST"
          + " /<service>/<method>" + (openApi != null ? ", and " + OPENAPI_PATH
              + " describes them" : ""));
      return;
    }
    String service = decoded.substring(1, slash);
    String method = decoded.substring(slash + 1);
    if (!exchange.method().equals("POST")) {
      methodNotAllowed(exchange, "POST");
      return;
    }
    Map<String, Route> methods = services.get(service);
    Route route = methods == null ? null : methods.get(method);
    byte[] body = exchange.body();
    String contentType = exchange.headers().get("content-type");
    if (body.length > 0 && !isJson(contentType)) {
      // Only JSON: a browser cannot send it to another site without asking first (CORS), so
      // a page elsewhere cannot make a user's browser call this server.
      HttpErrors.respond(exchange, 415, StatusCode.BAD_REQUEST,
          "the request body must be JSON (content-type: application/json), not "
              + (contentType == null ? "untyped" : "'" + contentType + "'"));
      return;
    }
    Duration timeout = null;
    String timeoutText = exchange.headers().get(TIMEOUT_HEADER);
    if (timeoutText != null) {
      timeout = Timeouts.parse(timeoutText);
      if (timeout == null) {
        HttpErrors.respond(exchange, 400, StatusCode.BAD_REQUEST,
            TIMEOUT_HEADER + ": '" + timeoutText + "' is not a duration (expected: "
                + Timeouts.EXPECTED + ")");
        return;
      }
    }
    Supplier<byte[]> arguments;
    if (route == null) {
      // Not callable here: the dispatcher answers, as it answers RPCX and gRPC (NOT_FOUND for
      // an unknown name, counted as a refusal); a method with a stream argument is refused.
      arguments = () -> {
        throw new BadRequestException(service + "/" + method + " cannot be called over HTTP");
      };
    } else {
      arguments = () -> read(route, body);
    }
    Flow.Publisher<byte[]> call =
        exchange.call(service, method, metadata(exchange.headers()), timeout, arguments);
    if (route != null && route.stream()) {
      call.subscribe(new JsonLines(exchange, route.mapping(), route.resultType(), service + "/" + method));
    } else {
      call.subscribe(
          new JsonReply(
              exchange,
              route == null ? null : route.mapping(),
              route == null ? "void" : route.resultType(),
              service + "/" + method));
    }
  }

  /** The request message of {@code route}'s method from the JSON {@code body}; where it runs. */
  private static byte[] read(Route route, byte[] body) {
    try {
      JsonNode arguments =
          body.length == 0
              ? HttpErrors.JSON.createArrayNode()
              : ServiceJson.parse(body, "the request body");
      return route.mapping().encodeArguments(route.method(), arguments);
    } catch (InvalidJsonException e) {
      throw new BadRequestException(e.getMessage());
    }
  }

  private static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
    return type.toLowerCase(Locale.ROOT).equals("application/json");
  }

  /** A call's metadata: the request's headers, but HTTP's own. */
  static Map<String, String> metadata(Map<String, String> headers) {
    Map<String, String> metadata = new HashMap<>();
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (!NOT_METADATA.contains(header.getKey())) {
        metadata.put(header.getKey(), header.getValue());
      }
    }
    return metadata;
  }

  /**
   * Runs {@code answer} if the server's interceptors let this request call the reflection
   * service, whose calls show what the document and the console show; else answers why not.
   */
  private static void guarded(HttpExchange exchange, Runnable answer) {
    exchange
        .call(REFLECTION, "listServices", metadata(exchange.headers()), null, () -> new byte[0])
        .subscribe(
            new Flow.Subscriber<>() {
              @Override
              public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(1);
              }

              @Override
              public void onNext(byte[] item) {
                answer.run();
              }

              @Override
              public void onError(Throwable failure) {
                HttpErrors.respond(exchange, failure);
              }

              @Override
              public void onComplete() {}
            });
  }

  private static void notFound(HttpExchange exchange, String message) {
    HttpErrors.respond(exchange, 404, StatusCode.NOT_FOUND, message);
  }

  private static void methodNotAllowed(HttpExchange exchange, String allowed) {
    exchange.respond(
        405,
        Map.of("content-type", "application/json", "allow", allowed.equals("GET") ? "GET, HEAD" : allowed),
        HttpErrors.bytes(
            HttpErrors.body(
                StatusCode.BAD_REQUEST,
                exchange.method() + " " + exchange.path() + ": only " + allowed
                    + " is served here",
                "")));
  }

  @Override
  public void refuse(HttpExchange exchange, int status, String problem) {
    HttpErrors.respond(
        exchange,
        status,
        status == 503
            ? StatusCode.UNAVAILABLE
            : status == 413 || status == 431 || status == 414
                ? StatusCode.RESOURCE_EXHAUSTED
                : StatusCode.BAD_REQUEST,
        problem);
  }
}
