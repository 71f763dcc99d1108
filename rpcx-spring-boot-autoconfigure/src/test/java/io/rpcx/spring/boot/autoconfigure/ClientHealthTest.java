package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.spring.boot.autoconfigure.greeter.ClientApp;
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
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The client's health over HTTP, as a monitor reads it: an idle client application whose server
 * stops reports it at once (DOWN, 503, the server going away, then unreachable), with no call made
 * to find out, and UP again once a server is back on the address.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientHealthTest {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void anIdleClientReportsAServerThatStoppedAtOnce() throws Exception {
    ConfigurableApplicationContext server = Apps.server("spring.main.banner-mode=off");
    int rpcxPort = Apps.port(server);
    String address = "127.0.0.1:" + rpcxPort;
    try (ConfigurableApplicationContext client =
        new SpringApplicationBuilder(ClientApp.class)
            .web(WebApplicationType.SERVLET)
            .properties(
                "spring.main.banner-mode=off",
                "server.port=0",
                "rpcx.client.target=" + address,
                "management.endpoints.web.exposure.include=health",
                "management.endpoint.health.show-details=always")
            .run()) {
      int httpPort = client.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
      client.getBean(Greeter.class).greet("Ada");
      HttpResponse<String> up = get(httpPort);
      assertEquals(200, up.statusCode(), up.body());
      assertTrue(up.body().contains("\"" + address + "\":\"available\""), up.body());

      server.close(); // the client makes no call from here on
      HttpResponse<String> down = await(httpPort, "\"withoutAvailableServer\":[\"greeter\"]");
      assertEquals(503, down.statusCode(), down.body());
      assertTrue(
          down.body().contains("\"" + address + "\":\"going_away\"")
              || down.body().contains("\"" + address + "\":\"unreachable\""),
          down.body());
      await(httpPort, "\"" + address + "\":\"unreachable\""); // it did not answer a reconnect

      server = Apps.server("spring.main.banner-mode=off", "rpcx.server.port=" + rpcxPort);
      HttpResponse<String> back = await(httpPort, "\"" + address + "\":\"available\"");
      assertEquals(200, back.statusCode(), back.body());
    } finally {
      server.close();
    }
  }

  /** The health endpoint's answer once its body contains {@code expected}, within 5 s. */
  private HttpResponse<String> await(int port, String expected)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (true) {
      HttpResponse<String> health = get(port);
      if (health.body().contains(expected)) {
        return health;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 5 s: " + expected + " in " + health.body());
      }
      Thread.sleep(10);
    }
  }

  private HttpResponse<String> get(int port) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
