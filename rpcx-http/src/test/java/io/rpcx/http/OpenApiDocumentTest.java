package io.rpcx.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptors;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code GET /openapi.json}: an OpenAPI 3.1 document of every method HTTP can call, read back by
 * the Swagger project's parser, with the POJOs, records and enums of {@link Shop} as components;
 * off unless asked for, and guarded by the server's interceptors as its reflection service is.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OpenApiDocumentTest {
  private static RpcxServer server;
  private static String text;
  private static JsonNode document;

  @BeforeAll
  static void start() {
    server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shop.Impl())
            .reflection(true)
            .http(RpcxHttp.builder().openApi(true).build())
            .build()
            .start();
    HttpResponse<String> response = Http.of(server.port()).get("/openapi.json");
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
    text = response.body();
    document = JsonMapping.parse(text, "the document");
  }

  @AfterAll
  static void stop() {
    server.stop(Duration.ofSeconds(5));
  }

  private static JsonNode operation(String path) {
    JsonNode item = document.get("paths").get(path);
    assertNotNull(item, path + " is not among " + names(document.get("paths")));
    assertEquals(List.of("post"), names(item), path + " has one operation, POST");
    return item.get("post");
  }

  private static List<String> names(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static JsonNode json(String text) {
    return JsonMapping.parse(text, "the expected schema");
  }

  private static JsonNode requestSchema(String path) {
    return operation(path).get("requestBody").get("content").get("application/json").get("schema");
  }

  private static JsonNode resultSchema(String path, String mediaType) {
    return operation(path).get("responses").get("200").get("content").get(mediaType).get("schema");
  }

  /** {@code json} read by swagger-parser, which resolves and checks the references in it. */
  private static SwaggerParseResult parse(String json) {
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    options.setValidateInternalRefs(true);
    return new OpenAPIV3Parser().readContents(json, null, options);
  }

  @Test
  void swaggerParserReadsItAsOpenApi31WithoutAMessage() {
    SwaggerParseResult result = parse(text);
    assertEquals(List.of(), result.getMessages());
    OpenAPI openApi = result.getOpenAPI();
    assertEquals(SpecVersion.V31, openApi.getSpecVersion());
    assertEquals("3.1.0", openApi.getOpenapi());
    assertTrue(
        openApi
            .getComponents()
            .getSchemas()
            .keySet()
            .containsAll(Set.of("Basket", "Item", "Size", "Error")),
        openApi.getComponents().getSchemas().keySet().toString());
    Schema<?> item = openApi.getComponents().getSchemas().get("Item");
    assertEquals(Set.of("object"), item.getTypes());
    assertEquals(
        List.of("price", "quantity", "size", "sku", "tags"),
        new ArrayList<>(item.getProperties().keySet()));
    Schema<?> found =
        openApi
            .getPaths()
            .get("/shop/find")
            .getPost()
            .getResponses()
            .get("200")
            .getContent()
            .get("application/json")
            .getSchema();
    List<?> either = found.getAnyOf();
    assertEquals("#/components/schemas/Item", ((Schema<?>) either.get(0)).get$ref());
    assertEquals(Set.of("null"), ((Schema<?>) either.get(1)).getTypes());
  }

  /** The check above can fail: the parser reports a broken reference and a missing part. */
  @Test
  void swaggerParserReportsWhatIsWrongWithADocument() {
    String broken =
        text.replace("\"#/components/schemas/Item\"", "\"#/components/schemas/Nothing\"")
            .replace("\"responses\":{\"200\"", "\"answers\":{\"200\"");
    List<String> messages;
    try (LogCapture log = LogCapture.of("io.swagger")) {
      messages = parse(broken).getMessages();
      assertEquals(
          List.of(
              "ERROR Error resolving schema #/components/schemas/Nothing"
                  + " [java.lang.RuntimeException: Could not find /components/schemas/Nothing in"
                  + " contents of #/components/schemas/Nothing]"),
          log.lines(Level.ERROR));
    }
    assertTrue(
        messages.contains("attribute paths.'/shop/find'(post).responses is missing"),
        messages.toString());
    assertTrue(
        messages.contains(
            "Could not find /components/schemas/Nothing in contents of"
                + " #/components/schemas/Nothing"),
        messages.toString());
  }

  @Test
  void everyReferenceResolvesInTheDocument() {
    List<String> references = new ArrayList<>();
    collectReferences(document, references);
    assertTrue(references.contains("#/components/schemas/Item"), references.toString());
    assertTrue(references.contains("#/components/schemas/Basket"), references.toString());
    assertTrue(references.contains("#/components/schemas/Size"), references.toString());
    assertTrue(references.contains("#/components/responses/Error"), references.toString());
    for (String reference : references) {
      assertTrue(reference.startsWith("#/"), reference);
      assertFalse(document.at(reference.substring(1)).isMissingNode(), reference + " resolves");
    }
  }

  private static void collectReferences(JsonNode node, List<String> references) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        if (field.getKey().equals("$ref")) {
          references.add(field.getValue().asText());
        } else {
          collectReferences(field.getValue(), references);
        }
      }
    } else if (node.isArray()) {
      node.forEach(element -> collectReferences(element, references));
    }
  }

  @Test
  void recordsClassesAndEnumsAreComponentsByTheirFields() {
    JsonNode schemas = document.get("components").get("schemas");
    assertEquals(
        json(
            "{\"title\": \"Item\", \"type\": \"object\", \"description\": \"Record"
                + " io.rpcx.http.Shop$Item\", \"properties\": {  \"price\": {\"type\": [\"number\","
                + " \"string\", \"null\"],    \"description\": \"a decimal number; as a string it"
                + " keeps every digit\"},  \"quantity\": {\"type\": \"integer\", \"format\":"
                + " \"int32\"},  \"size\": {\"anyOf\": [{\"$ref\": \"#/components/schemas/Size\"},"
                + " {\"type\": \"null\"}]},  \"sku\": {\"type\": [\"string\", \"null\"]}, "
                + " \"tags\": {\"type\": [\"array\", \"null\"], \"items\": {\"type\": [\"string\","
                + " \"null\"]}}}, \"additionalProperties\": false}"),
        schemas.get("Item"));
    JsonNode basket = schemas.get("Basket");
    assertEquals("Class io.rpcx.http.Shop$Basket", basket.get("description").asText());
    assertEquals(
        json("{\"type\": [\"string\", \"null\"], \"format\": \"date-time\"}"),
        basket.get("properties").get("createdAt"));
    assertEquals(
        json("{\"type\": \"integer\", \"format\": \"int64\"}"), basket.get("properties").get("id"));
    assertEquals(json("{\"type\": \"boolean\"}"), basket.get("properties").get("paid"));
    assertEquals(
        json(
            "{\"type\": [\"array\", \"null\"], \"items\": {\"anyOf\": [{\"$ref\":"
                + " \"#/components/schemas/Item\"}, {\"type\": \"null\"}]}}"),
        basket.get("properties").get("items"));
    assertEquals(
        json(
            "{\"type\": [\"object\", \"null\"], \"additionalProperties\": {\"type\": \"integer\","
                + " \"format\": \"int32\"}}"),
        basket.get("properties").get("counts"));
    assertEquals(
        json("{\"title\": \"Size\", \"type\": \"string\", \"enum\": [\"SMALL\", \"LARGE\"]}"),
        schemas.get("Size"));
  }

  @Test
  void eachCallableMethodIsOnePostAtServiceSlashMethod() {
    Set<String> shop = new TreeSet<>();
    for (String path : names(document.get("paths"))) {
      if (path.startsWith("/shop/")) {
        shop.add(path);
      }
    }
    assertEquals(
        Set.of(
            "/shop/basket",
            "/shop/context",
            "/shop/describe",
            "/shop/failing",
            "/shop/find",
            "/shop/item",
            "/shop/items",
            "/shop/nothing",
            "/shop/search",
            "/shop/slow"),
        shop,
        "every method but sum, whose stream argument HTTP cannot carry");
    JsonNode find = operation("/shop/find");
    assertEquals("shop/find", find.get("operationId").asText());
    assertEquals(List.of("shop"), List.of(find.get("tags").get(0).asText()));
    assertEquals("find(int64 id) -> Item", find.get("summary").asText());
    JsonNode timeout = find.get("parameters").get(0);
    assertEquals("rpcx-timeout", timeout.get("name").asText());
    assertEquals("header", timeout.get("in").asText());
    JsonNode sum = findListed("shop", "sum");
    assertFalse(sum.get("callable").asBoolean(), "listed for the console, marked not callable");
  }

  private static JsonNode findListed(String service, String method) {
    for (JsonNode listed : document.get("x-rpcx-services")) {
      if (listed.get("name").asText().equals(service)) {
        for (JsonNode candidate : listed.get("methods")) {
          if (candidate.get("method").asText().equals(method)) {
            return candidate;
          }
        }
      }
    }
    throw new AssertionError(service + "/" + method + " is not listed");
  }

  @Test
  void theRequestBodyIsTheArgumentsInOrderOrByName() {
    assertEquals(
        json(
            "{\"oneOf\": [ {\"type\": \"array\", \"prefixItems\": [   {\"type\": \"integer\","
                + " \"format\": \"int32\"}, {\"type\": \"boolean\"},   {\"type\": [\"string\","
                + " \"null\"]}, {\"type\": [\"array\", \"null\"], \"items\": {\"type\":"
                + " [\"string\", \"null\"]}}],  \"minItems\": 4, \"maxItems\": 4}, {\"type\":"
                + " \"object\", \"properties\": {   \"number\": {\"type\": \"integer\", \"format\":"
                + " \"int32\"}, \"flag\": {\"type\": \"boolean\"},   \"text\": {\"type\":"
                + " [\"string\", \"null\"]}, \"list\": {\"type\": [\"array\", \"null\"], \"items\":"
                + " {\"type\": [\"string\", \"null\"]}}},  \"additionalProperties\": false}]}"),
        requestSchema("/shop/describe"));
    assertEquals(
        "#/components/schemas/Basket",
        requestSchema("/shop/basket")
            .get("oneOf")
            .get(0)
            .get("prefixItems")
            .get(0)
            .get("anyOf")
            .get(0)
            .get("$ref")
            .asText());
    assertTrue(operation("/shop/find").get("requestBody").get("required").asBoolean());
    assertFalse(
        operation("/shop/nothing").get("requestBody").get("required").asBoolean(),
        "no arguments, no body needed");
    assertEquals(
        json("[42]"),
        operation("/shop/find")
            .get("requestBody")
            .get("content")
            .get("application/json")
            .get("example"));
  }

  @Test
  void theResponseIsTheResultAndAStreamIsNewlineDelimitedJson() {
    assertEquals(
        json("{\"anyOf\": [{\"$ref\": \"#/components/schemas/Item\"}, {\"type\": \"null\"}]}"),
        resultSchema("/shop/find", "application/json"));
    assertEquals(
        json(
            "{\"type\": [\"array\", \"null\"], \"items\": {\"anyOf\": [{\"$ref\":"
                + " \"#/components/schemas/Item\"}, {\"type\": \"null\"}]}}"),
        resultSchema("/shop/search", "application/json"));
    assertEquals(json("{\"type\": \"null\"}"), resultSchema("/shop/nothing", "application/json"));
    assertEquals(
        json(
            "{\"type\": [\"object\", \"null\"], \"additionalProperties\": {\"type\": [\"string\","
                + " \"null\"]}}"),
        resultSchema("/shop/context", "application/json"));
    assertEquals(
        json(
            "{\"type\": \"object\", \"properties\": {"
                + " \"result\": {\"$ref\": \"#/components/schemas/Item\"},"
                + " \"error\": {\"$ref\": \"#/components/schemas/Error\"}}}"),
        resultSchema("/shop/items", "application/x-ndjson"));
  }

  @Test
  void errorsAnswerTheErrorBodyAndDeclaredExceptionsAreNamed() {
    JsonNode responses = operation("/shop/find").get("responses");
    assertEquals(
        List.of("200", "400", "500", "default"), names(responses), "the reply, then the errors");
    assertEquals("#/components/responses/BadRequest", responses.get("400").get("$ref").asText());
    assertEquals("#/components/responses/Error", responses.get("default").get("$ref").asText());
    JsonNode failed = responses.get("500");
    assertEquals(
        "The implementation threw: status REMOTE_FAILURE, exceptionClass its class. It declares"
            + " io.rpcx.http.Shop$ItemMissingException.",
        failed.get("description").asText());
    assertEquals(
        "#/components/schemas/Error",
        failed.get("content").get("application/json").get("schema").get("$ref").asText());
    assertEquals(
        json("[\"io.rpcx.http.Shop$ItemMissingException\"]"),
        operation("/shop/find").get("x-rpcx").get("declaredExceptions"));
    assertEquals(
        "The implementation threw: status REMOTE_FAILURE, exceptionClass its class.",
        operation("/shop/item").get("responses").get("500").get("description").asText());
    JsonNode error = document.get("components").get("schemas").get("Error");
    assertEquals(json("[\"status\", \"message\"]"), error.get("required"));
    assertEquals(List.of("status", "message", "exceptionClass"), names(error.get("properties")));
  }

  @Test
  void offUnlessAskedFor() {
    RpcxServer plain =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shop.Impl())
            .reflection(true)
            .http(RpcxHttp.builder().build())
            .build()
            .start();
    try {
      HttpResponse<String> response = Http.of(plain.port()).get("/openapi.json");
      assertEquals(404, response.statusCode(), response.body());
      assertEquals(
          "nothing is served at /openapi.json: a method is called with POST /<service>/<method>",
          json(response.body()).get("message").asText());
    } finally {
      plain.stop(Duration.ofSeconds(5));
    }
  }

  @Test
  void onlyGetAndHeadReadIt() {
    HttpResponse<String> post = Http.of(server.port()).post("/openapi.json", "[]");
    assertEquals(405, post.statusCode(), post.body());
    assertEquals("GET, HEAD", post.headers().firstValue("allow").orElseThrow());
  }

  @Test
  void itNeedsTheReflectionServiceWhoseGuardItShares() {
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () ->
                RpcxServer.builder()
                    .bindAddress("127.0.0.1")
                    .port(0)
                    .service(new Shop.Impl())
                    .http(RpcxHttp.builder().openApi(true).build())
                    .build()
                    .start());
    assertEquals(
        "openApi(true) shows the server's services to callers its interceptors let call the"
            + " reflection service (rpcx.reflection.v1.Reflection), which this server does not"
            + " publish: build it with reflection(true)",
        refused.getMessage());
  }

  @Test
  void aServerWithTokensAnswersItOnlyWithTheToken() {
    RpcxServer guarded =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shop.Impl())
            .reflection(true)
            .intercept(ServerInterceptors.bearerToken("s3cret"::equals))
            .http(RpcxHttp.builder().openApi(true).build())
            .build()
            .start();
    try (LogCapture log = LogCapture.rpcx()) {
      Http http = Http.of(guarded.port());
      HttpResponse<String> without = http.get("/openapi.json");
      assertEquals(401, without.statusCode(), without.body());
      assertEquals("Bearer", without.headers().firstValue("www-authenticate").orElseThrow());
      assertEquals(
          json(
              "{\"status\": \"UNAUTHENTICATED\", \"message\": \"missing credentials: the call has"
                  + " no 'authorization' metadata\"}"),
          json(without.body()));
      HttpResponse<String> wrong = http.get("/openapi.json", "authorization", "Bearer guess");
      assertEquals(401, wrong.statusCode(), wrong.body());
      assertFalse(wrong.body().contains("shop"), wrong.body());
      HttpResponse<String> with = http.get("/openapi.json", "authorization", "Bearer s3cret");
      assertEquals(200, with.statusCode(), with.body());
      assertEquals(document, json(with.body()), "the same document, once let through");
      log.assertOnly(Level.WARN);
    } finally {
      guarded.stop(Duration.ofSeconds(5));
    }
  }
}
