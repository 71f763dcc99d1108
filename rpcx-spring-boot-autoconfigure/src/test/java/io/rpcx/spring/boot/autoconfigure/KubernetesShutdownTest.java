package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import io.rpcx.spring.boot.autoconfigure.greeter.GreeterImpl;
import io.rpcx.spring.boot.autoconfigure.greeter.ServerApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A server application with a web server and the actuator, stopped while an RPCX call is in
 * flight, as Kubernetes stops a pod: the actuator keeps answering over HTTP for as long as RPCX
 * drains, the readiness probe (configured as docs/SPRING_BOOT.md recommends, with {@code
 * rpcx/server}) and the {@code rpcx} component say OUT_OF_SERVICE (503) and the liveness probe
 * stays UP (200), so the pod is taken out of its service and not killed before its calls are
 * answered. The web server stops only after RPCX has drained.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class KubernetesShutdownTest {
  /** The {@code rpcx/server} component's status in the health endpoint's JSON, once it drains. */
  private static final String SERVER_DRAINING = "\"server\":{\"status\":\"OUT_OF_SERVICE\"";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @AfterEach
  void openTheGate() {
    GreeterImpl.gate.countDown();
  }

  @Test
  void theActuatorAnswersOverHttpWhileRpcxDrains() throws Exception {
    GreeterImpl.gate = new CountDownLatch(1);
    ExecutorService threads = Executors.newCachedThreadPool();
    ConfigurableApplicationContext server =
        new SpringApplicationBuilder(ServerApp.class)
            .web(WebApplicationType.SERVLET)
            .properties(
                "spring.main.banner-mode=off",
                "server.port=0",
                "rpcx.server.port=0",
                "rpcx.server.shutdown-grace-period=20s",
                "management.endpoints.web.exposure.include=health",
                "management.endpoint.health.probes.enabled=true",
                "management.endpoint.health.group.readiness.include=readinessState,rpcx/server",
                "management.endpoint.health.show-components=always")
            .run();
    int httpPort = server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    try (ConfigurableApplicationContext client =
        Apps.client(
            Apps.port(server),
            "spring.main.banner-mode=off",
            "rpcx.client.default-timeout=30s")) { // the held call outlives the drain
      HttpResponse<String> ready = get(httpPort, "/actuator/health/readiness");
      assertEquals(200, ready.statusCode(), ready.body());
      assertTrue(ready.body().contains("\"server\":{\"status\":\"UP\""), ready.body());
      Greeter greeter = client.getBean(Greeter.class);
      // Threads of their own: the common pool may have a single worker, which the held call keeps.
      CompletableFuture<String> call =
          CompletableFuture.supplyAsync(() -> greeter.held("Ada"), threads);
      GracefulShutdownTest.await(() -> GreeterImpl.held.get() == 1, "the call in flight");

      CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close, threads);
      HttpResponse<String> health = awaitDraining(httpPort);
      assertEquals(503, health.statusCode(), health.body());
      HttpResponse<String> readiness = get(httpPort, "/actuator/health/readiness");
      assertEquals(503, readiness.statusCode(), readiness.body());
      assertTrue(readiness.body().contains(SERVER_DRAINING), readiness.body());
      HttpResponse<String> liveness = get(httpPort, "/actuator/health/liveness");
      assertEquals(200, liveness.statusCode(), liveness.body());
      assertFalse(call.isDone(), "the call is still in flight");
      assertFalse(closing.isDone(), "the close waits for the call in flight");

      GreeterImpl.gate.countDown();
      assertEquals("Hello, Ada", call.get(10, TimeUnit.SECONDS));
      closing.get(30, TimeUnit.SECONDS);
    } finally {
      server.close();
      threads.shutdown();
    }
  }

  /**
   * The health endpoint's answer once RPCX drains; fails if the web server stops answering first,
   * as it did when RPCX drained in the web server's own shutdown phase.
   */
  private HttpResponse<String> awaitDraining(int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      HttpResponse<String> health;
      try {
        health = get(port, "/actuator/health");
      } catch (IOException e) {
        throw new AssertionError(
            "the actuator stopped answering over HTTP before RPCX had drained: " + e, e);
      }
      if (health.body().contains(SERVER_DRAINING)) {
        return health;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("RPCX never reported draining: " + health.body());
      }
      Thread.sleep(10);
    }
  }

  private HttpResponse<String> get(int port, String path)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
