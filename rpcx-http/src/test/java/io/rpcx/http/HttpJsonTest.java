package io.rpcx.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.server.RpcxServer;
import io.rpcx.internal.testing.LogCapture;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every published method answers {@code POST /<service>/<method>} with JSON, over HTTP/1.1 on the
 * server's own port: arguments as an array or by name, every value shape, errors as an HTTP status
 * that fits the RPCX status and a JSON body naming the problem, metadata from headers, deadlines
 * from {@code rpcx-timeout}, server streams as newline-delimited JSON.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpJsonTest {
  private static final Shop.Impl shop = new Shop.Impl();
  private static RpcxServer server;
  private static Http http;

  @BeforeAll
  static void start() {
    server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(shop)
            .http(RpcxHttp.builder().maxRequestBytes(4096).build())
            .build()
            .start();
    http = Http.of(server.port());
  }

  @AfterAll
  static void stop() {
    shop.release.countDown();
    server.stop(Duration.ofSeconds(5));
  }

  static JsonNode json(String text) {
    return JsonMapping.parse(text, "the answer");
  }

  static void assertJson(String expected, String actual) {
    assertEquals(json(expected), json(actual), actual);
  }

  static void assertError(HttpResponse<String> response, int status, String rpcxStatus, String message) {
    assertEquals(status, response.statusCode(), response.body());
    assertEquals("application/json", response.headers().firstValue("content-type").orElse(""));
    JsonNode error = json(response.body());
    assertEquals(rpcxStatus, error.get("status").asText(), response.body());
    assertEquals(message, error.get("message").asText());
  }

  @Test
  void aMethodAnswersItsResultAsJson() {
    HttpResponse<String> response = http.post("/shop/find", "[42]");
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
    assertJson(
        "{\"sku\": \"SKU-42\", \"quantity\": 42, \"price\": 2.50, \"size\": \"LARGE\","
            + " \"tags\": [\"t42\"]}",
        response.body());
  }

  @Test
  void argumentsComeAsAnArrayInOrderOrAnObjectByName() {
    assertJson(
        "\"7 true 'x' [a]\"",
        http.post("/shop/describe", "{\"text\": \"x\", \"number\": 7, \"flag\": true, \"list\": [\"a\"]}").body());
    assertJson("\"7 true 'x' [a]\"", http.post("/shop/describe", "[7, true, \"x\", [\"a\"]]").body());
  }

  @Test
  void zeroFalseEmptyAndNullStayApart() {
    assertJson("\"0 false '' []\"", http.post("/shop/describe", "[0, false, \"\", []]").body());
    assertJson("\"0 false null null\"", http.post("/shop/describe", "[0, false, null, null]").body());
    assertJson("\"0 false null null\"", http.post("/shop/describe", "{\"number\": 0, \"flag\": false}").body());
  }

  @Test
  void recordsAndClassesGoBothWays() {
    String item =
        "{\"sku\": \"A-1\", \"quantity\": 3, \"price\": \"12.50\", \"size\": \"SMALL\", \"tags\": [\"x\", \"y\"]}";
    assertJson(
        "{\"sku\": \"A-1\", \"quantity\": 3, \"price\": 12.50, \"size\": \"SMALL\", \"tags\": [\"x\", \"y\"]}",
        http.post("/shop/item", "[" + item + "]").body());
    String basket =
        "{\"id\": 9007199254740993, \"owner\": \"ann\", \"createdAt\": \"2024-05-01T10:00:00Z\","
            + " \"paid\": true, \"items\": [" + item + "], \"counts\": {\"a\": 1, \"b\": 2}}";
    HttpResponse<String> response = http.post("/shop/basket", "{\"basket\": " + basket + "}");
    assertEquals(200, response.statusCode(), response.body());
    JsonNode answer = json(response.body());
    assertEquals("9007199254740993", answer.get("id").asText());
    assertEquals("2024-05-01T10:00:00Z", answer.get("createdAt").asText());
    assertTrue(answer.get("paid").asBoolean());
    assertEquals(json("{\"a\": 1, \"b\": 2}"), answer.get("counts"));
    assertEquals("A-1", answer.get("items").get(0).get("sku").asText());
    assertEquals(3, http.post("/shop/search", "[\"any\", 3]").body().split("SKU-").length - 1);
  }

  @Test
  void aMethodWithoutArgumentsOrResultTakesNoBodyAndAnswersNull() {
    HttpResponse<String> response =
        http.send(http.request("/shop/nothing").POST(HttpRequest.BodyPublishers.noBody()).build());
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("null", response.body());
  }

  @Test
  void whatTheImplementationThrowsIsA500NamingItsClass() {
    HttpResponse<String> response = http.post("/shop/find", "[-1]");
    assertEquals(500, response.statusCode());
    assertJson(
        "{\"status\": \"REMOTE_FAILURE\", \"message\": \"no item -1\","
            + " \"exceptionClass\": \"io.rpcx.http.Shop$ItemMissingException\"}",
        response.body());
  }

  @Test
  void unknownServicesAndMethodsAre404() {
    assertError(http.post("/shop/nope", "[]"), 404, "NOT_FOUND", "service 'shop' has no method 'nope'");
    assertError(http.post("/store/find", "[1]"), 404, "NOT_FOUND", "unknown service 'store'");
    assertError(http.post("/shop", "[1]"), 404, "NOT_FOUND",
        "nothing is served at /shop: a method is called with POST /<service>/<method>");
  }

  @Test
  void malformedJsonIsA400SayingWhere() {
    assertError(http.post("/shop/find", "[42"), 400, "BAD_REQUEST",
        "the request body: not valid JSON at line 1, column 4: Unexpected end-of-input:"
            + " expected close marker for Array");
  }

  @Test
  void aValueOfTheWrongTypeIsA400NamingTheArgumentAndTheType() {
    assertError(http.post("/shop/find", "[\"forty-two\"]"), 400, "BAD_REQUEST",
        "argument 'id': expected int64, got \"forty-two\"");
    assertError(http.post("/shop/item", "[{\"sku\": \"A\", \"quantity\": \"three\"}]"), 400,
        "BAD_REQUEST", "argument 'item' field 'quantity': expected int32, got \"three\"");
    assertError(http.post("/shop/find", "[1, 2]"), 400, "BAD_REQUEST",
        "shop/find takes 1 argument, got 2 (shop/find(int64 id) -> Item)");
    assertError(http.post("/shop/find", "{\"ident\": 1}"), 400, "BAD_REQUEST",
        "shop/find has no parameter 'ident' (its parameters: id; shop/find(int64 id) -> Item)");
    assertError(http.post("/shop/find", "{}"), 400, "BAD_REQUEST",
        "argument 0 (id) of shop/find is absent, but the parameter is a primitive long (the field"
            + " must be set)");
  }

  @Test
  void aBodyOverTheLimitIsA413NamingTheLimit() {
    String big = "[\"" + "x".repeat(5000) + "\", 1]";
    assertError(http.post("/shop/search", big), 413, "RESOURCE_EXHAUSTED",
        "the request announces a body of 5007 bytes, over the limit of 4096 bytes");
    assertEquals(200, http.post("/shop/find", "[1]").statusCode(), "the server goes on");
  }

  @Test
  void onlyPostCallsAndOnlyJsonIsRead() {
    HttpResponse<String> get = http.get("/shop/find");
    assertEquals(405, get.statusCode());
    assertEquals("POST", get.headers().firstValue("allow").orElseThrow());
    HttpResponse<String> form =
        http.send(
            http.request("/shop/find")
                .header("content-type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("id=1"))
                .build());
    assertError(form, 415, "BAD_REQUEST",
        "the request body must be JSON (content-type: application/json), not"
            + " 'application/x-www-form-urlencoded'");
  }

  @Test
  void aClientStreamCannotBeCalledOverHttp() {
    assertError(http.post("/shop/sum", "[]"), 400, "BAD_REQUEST",
        "shop/sum takes a stream argument (stream<int32>), which a request of one body cannot"
            + " carry: call it over RPCX or gRPC");
  }

  @Test
  void headersAreTheCallsMetadataAndRpcxTimeoutItsDeadline() {
    JsonNode seen =
        json(http.post("/shop/context", "[]", "x-tenant", "blue", "rpcx-timeout", "5s").body());
    assertEquals("blue", seen.get("x-tenant").asText());
    assertEquals("set", seen.get("deadline").asText());
    assertTrue(seen.get("content-type") == null, "HTTP's own headers are not metadata: " + seen);
    assertTrue(seen.get("rpcx-timeout") == null, seen.toString());
    assertTrue(json(http.post("/shop/context", "[]").body()).get("deadline") == null);
  }

  @Test
  void aCallPastItsDeadlineIsA504() {
    assertError(http.post("/shop/slow", "[5000]", "rpcx-timeout", "200ms"), 504, "TIMEOUT",
        "shop/slow timed out after 200 ms (the caller's timeout)");
  }

  @Test
  void aTimeoutThatIsNotADurationIsA400() {
    assertError(http.post("/shop/find", "[1]", "rpcx-timeout", "soon"), 400, "BAD_REQUEST",
        "rpcx-timeout: 'soon' is not a duration (expected: such as 500ms, 10s, 1.5s, 2m or PT30S)");
  }

  @Test
  void aServerStreamIsNewlineDelimitedJson() {
    HttpResponse<String> response = http.post("/shop/items", "[3]");
    assertEquals(200, response.statusCode());
    assertEquals("application/x-ndjson", response.headers().firstValue("content-type").orElseThrow());
    List<String> lines = response.body().lines().toList();
    assertEquals(3, lines.size(), response.body());
    assertEquals("SKU-2", json(lines.get(2)).get("result").get("sku").asText());
    assertEquals("", http.post("/shop/items", "[0]").body(), "no elements, no lines");
  }

  @Test
  void aStreamThatFailsAfterItStartedEndsWithAnErrorLine() {
    try (LogCapture log = LogCapture.of("io.rpcx.server")) {
      List<String> lines = http.post("/shop/failing", "[2]").body().lines().toList();
      assertEquals(List.of("{\"result\":0}", "{\"result\":1}"), lines.subList(0, 2));
      JsonNode error = json(lines.get(2)).get("error");
      assertEquals("REMOTE_FAILURE", error.get("status").asText());
      assertEquals("broke after 2", error.get("message").asText());
      assertEquals("java.lang.IllegalStateException", error.get("exceptionClass").asText());
      assertEquals(3, lines.size());
      assertEquals(1, log.warningsContaining("shop/failing").size(), log.all());
    }
  }

  @Test
  void aStreamIsMadeNoFasterThanTheClientReads() throws Exception {
    long before = shop.requested.get();
    HttpResponse<InputStream> response =
        http.send(
            http.request("/shop/items")
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("[10000000]"))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      assertTrue(lines.readLine().contains("SKU-0"));
      long stable = awaitStable(() -> shop.requested.get() - before);
      // What the socket buffers hold, and the few elements asked for ahead: far from all of them.
      assertTrue(stable < 500_000, "requested " + stable + " of 10000000 while the client read 1");
      for (int i = 0; i < 1000; i++) {
        lines.readLine();
      }
    }
  }

  /** The value of {@code counter} once it has not changed for 300 ms. */
  static long awaitStable(java.util.function.LongSupplier counter) throws InterruptedException {
    long last = counter.getAsLong();
    long since = System.nanoTime();
    while (System.nanoTime() - since < TimeUnit.MILLISECONDS.toNanos(300)) {
      Thread.sleep(20);
      long now = counter.getAsLong();
      if (now != last) {
        last = now;
        since = System.nanoTime();
      }
    }
    return last;
  }
}
