package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code rpcx.server.http.*}: HTTP/JSON is off until {@code rpcx.server.http.enabled=true} turns
 * it on, on the server's port or on {@code rpcx.server.http.port}, behind the same bearer tokens as
 * RPCX calls; each call here is a real HTTP request of the JDK's client. What a refused value or a
 * missing rpcx-http reports: {@link FailureReportsTest}, {@link PropertyRefusalsTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpPropertiesTest {
  private static final ObjectMapper json = new ObjectMapper();
  private static final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @Test
  void offByDefaultThePortAnswersNoHttp() throws Exception {
    try (ConfigurableApplicationContext server = Apps.server();
        LogCapture logs = LogCapture.of("io.rpcx")) {
      int port = Apps.port(server);
      // RPCX's own preface check turns the request away: closed, with no HTTP answer
      assertThrows(IOException.class, () -> post(port, "/greeter/greet", "[\"Ada\"]"));
      logs.assertMatching(
          Level.WARN,
          "WARN Closing connection from /127.0.0.1:\\d+: invalid preface 0x504f5354202f6772"
              + " \\('POST /gr'\\): not an RPCX client");
      assertEquals(null, server.getEnvironment().getProperty("local.rpcx.server.http.port"));
      // while RPCX calls work as before
      try (ConfigurableApplicationContext client = Apps.client(port)) {
        assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      }
    }
  }

  @Test
  void onWithThePropertyOnTheServersPort() throws Exception {
    try (ConfigurableApplicationContext server = Apps.server("rpcx.server.http.enabled=true")) {
      int port = Apps.port(server);
      assertEquals(port, httpPort(server), "HTTP on the server's own port");

      HttpResponse<String> greeting = post(port, "/greeter/greet", "[\"Ada\"]");
      assertEquals(200, greeting.statusCode(), greeting.body());
      assertEquals("application/json", greeting.headers().firstValue("content-type").orElse(""));
      assertEquals(json.readTree("\"Hello, Ada\""), json.readTree(greeting.body()));

      // a record argument by parameter name, a POJO result
      HttpResponse<String> full =
          post(
              port,
              "/greeter/greetFully",
              "{\"person\": {\"name\": \"Lovelace\", \"titles\": [\"Countess\"]}}");
      assertEquals(200, full.statusCode(), full.body());
      assertEquals(
          json.readTree("{\"text\": \"Hello, Countess Lovelace\", \"length\": 24}"),
          json.readTree(full.body()));

      // RPCX and HTTP share the port
      try (ConfigurableApplicationContext client = Apps.client(port)) {
        assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      }
    }
  }

  @Test
  void onAPortOfItsOwn() throws Exception {
    try (ConfigurableApplicationContext server =
            Apps.server("rpcx.server.http.enabled=true", "rpcx.server.http.port=0");
        LogCapture logs = LogCapture.of("io.rpcx")) {
      int port = Apps.port(server);
      int httpPort = httpPort(server);
      assertNotEquals(port, httpPort);

      HttpResponse<String> greeting = post(httpPort, "/greeter/greet", "[\"Ada\"]");
      assertEquals(200, greeting.statusCode(), greeting.body());
      assertEquals(json.readTree("\"Hello, Ada\""), json.readTree(greeting.body()));

      // the server's port serves no HTTP then, and RPCX still
      assertThrows(IOException.class, () -> post(port, "/greeter/greet", "[\"Ada\"]"));
      logs.assertMatching(
          Level.WARN,
          "WARN Closing connection from /127.0.0.1:\\d+: invalid preface 0x504f5354202f6772"
              + " \\('POST /gr'\\): not an RPCX client");
      try (ConfigurableApplicationContext client = Apps.client(port)) {
        assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      }
    }
  }

  @Test
  void theBearerTokensGuardHttpCallsToo() throws Exception {
    try (ConfigurableApplicationContext server =
        Apps.server("rpcx.server.http.enabled=true", "rpcx.server.bearer-tokens=s3cret")) {
      int port = httpPort(server);
      HttpResponse<String> refused = post(port, "/greeter/greet", "[\"Ada\"]");
      assertEquals(401, refused.statusCode(), refused.body());
      JsonNode error = json.readTree(refused.body());
      assertEquals("UNAUTHENTICATED", error.get("status").asText(), refused.body());
      HttpResponse<String> allowed =
          post(port, "/greeter/greet", "[\"Ada\"]", "authorization", "Bearer s3cret");
      assertEquals(200, allowed.statusCode(), allowed.body());
    }
  }

  @Test
  void theRequestLimitFromASizeProperty() throws Exception {
    try (ConfigurableApplicationContext server =
        Apps.server("rpcx.server.http.enabled=true", "rpcx.server.http.max-request-bytes=1KB")) {
      String name = "x".repeat(1100);
      HttpResponse<String> tooLarge = post(httpPort(server), "/greeter/greet", "[\"" + name + "\"]");
      assertEquals(413, tooLarge.statusCode(), tooLarge.body());
      HttpResponse<String> fits = post(httpPort(server), "/greeter/greet", "[\"Ada\"]");
      assertEquals(200, fits.statusCode(), fits.body());
    }
  }

  @Test
  void theDocumentAndTheConsoleWhenAskedFor() throws Exception {
    try (ConfigurableApplicationContext server =
        Apps.server(
            "rpcx.server.http.enabled=true",
            "rpcx.server.reflection=true",
            "rpcx.server.http.open-api=true",
            "rpcx.server.http.console=true",
            "rpcx.server.http.console-path=/console/")) {
      int port = httpPort(server);
      HttpResponse<String> document = get(port, "/openapi.json");
      assertEquals(200, document.statusCode(), document.body());
      assertEquals("3.1.0", json.readTree(document.body()).get("openapi").asText());
      assertEquals(
          true,
          json.readTree(document.body()).get("paths").has("/greeter/greet"),
          document.body());
      HttpResponse<String> console = get(port, "/console/");
      assertEquals(200, console.statusCode(), console.body());
      assertEquals(
          "text/html",
          console.headers().firstValue("content-type").orElse("").replaceAll(";.*", ""));
    }
  }

  private static int httpPort(ConfigurableApplicationContext server) {
    return server
        .getEnvironment()
        .getRequiredProperty("local.rpcx.server.http.port", Integer.class);
  }

  private static HttpResponse<String> post(int port, String path, String body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(20))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(int port, String path)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(20))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
