package io.rpcx.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.examples.api.Samples;
import io.rpcx.examples.server.ExampleServer;
import io.rpcx.http.JsonMapping;
import io.rpcx.internal.testing.LogCapture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The example server's {@code --http}: its port answers HTTP/JSON calls as README's {@code curl}
 * makes them, the OpenAPI document and the console's page; without it, the port serves no HTTP.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExampleServerHttpTest {
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private HttpResponse<String> send(HttpRequest.Builder request)
      throws IOException, InterruptedException {
    return client.send(
        request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void httpServesCallsTheDocumentAndTheConsoleOnTheServersPort() throws Exception {
    try (ExampleServer server =
        ExampleServer.start("--port", "0", "--bind", "127.0.0.1", "--http")) {
      String base = "http://127.0.0.1:" + server.server().port();
      // curl -H 'content-type: application/json' -d '[42]' http://localhost:9000/orders/findOrder
      HttpResponse<String> order =
          send(
              HttpRequest.newBuilder(URI.create(base + "/orders/findOrder"))
                  .header("content-type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString("[42]")));
      assertEquals(200, order.statusCode(), order.body());
      JsonNode found = JsonMapping.parse(order.body(), "the order");
      assertEquals(Samples.order(42).getBillNumber(), found.get("billNumber").asText());

      HttpResponse<String> document =
          send(HttpRequest.newBuilder(URI.create(base + "/openapi.json")));
      assertEquals(200, document.statusCode(), document.body());
      JsonNode paths = JsonMapping.parse(document.body(), "the document").get("paths");
      assertTrue(paths.has("/orders/findOrder"), document.body());

      HttpResponse<String> page = send(HttpRequest.newBuilder(URI.create(base + "/")));
      assertEquals(200, page.statusCode());
      assertEquals(
          "text/html; charset=utf-8", page.headers().firstValue("content-type").orElseThrow());
      assertTrue(page.body().contains("<title>RPCX console</title>"), page.body());
    }
  }

  @Test
  void withoutItThePortServesNoHttp() throws InterruptedException {
    try (LogCapture log = LogCapture.of("io.rpcx");
        ExampleServer server = ExampleServer.start("--port", "0", "--bind", "127.0.0.1")) {
      assertThrows(
          IOException.class,
          () ->
              send(
                  HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + server.server().port() + "/openapi.json"))));
      // The JDK's client may try a GET twice on a connection closed before an answer.
      String refused =
          "WARN Closing connection from /127\\.0\\.0\\.1:\\d+: invalid preface 0x474554202f6f7065"
              + " \\('GET /ope'\\): not an RPCX client";
      assertTrue(log.awaitLine(Level.WARN, refused), log.all());
      log.assertOnly(Level.WARN, refused);
    }
  }
}
