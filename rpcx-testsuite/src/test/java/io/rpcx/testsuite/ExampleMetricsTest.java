package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.examples.api.EchoService;
import io.rpcx.examples.server.ExampleServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The example server with {@code --metrics-port} serves its calls' measurements to Prometheus. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExampleMetricsTest {

  @Test
  void aScrapeAfterAFewCallsShowsTheServerCallDurationOfTheExampleMethods() throws Exception {
    try (ExampleServer running = ExampleServer.start("--port", "0", "--metrics-port", "0");
        RpcxClient client =
            RpcxClient.builder().target("127.0.0.1", running.server().port()).build()) {
      EchoService echo = client.create(EchoService.class);
      for (int i = 0; i < 3; i++) {
        assertEquals("hi", echo.echo("hi"));
      }
      HttpResponse<String> scrape =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + running.metricsPort() + "/metrics"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, scrape.statusCode());
      String body = scrape.body();
      assertTrue(
          body.lines()
              .anyMatch(
                  line ->
                      line.startsWith("rpc_server_call_duration_seconds_count{")
                          && line.contains("rpc_method=\"echo/echo\"")
                          && line.contains("rpc_status_code=\"OK\"")
                          && line.endsWith(" 3")),
          body);
      assertTrue(body.contains("rpcx_server_connections_open"), body);
    }
  }
}
