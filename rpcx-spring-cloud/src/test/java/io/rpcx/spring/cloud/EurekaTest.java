package io.rpcx.spring.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.internal.testing.LogCapture;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Spring Cloud Netflix Eureka server, started by the test from Maven Central's artifacts:
 * Spring Boot servers register their RPCX port there beside their HTTP port (a fixed port, and one
 * chosen at start), and a Spring Boot client with no RPCX address at all finds both and follows
 * one leaving.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EurekaTest {
  private ConfigurableApplicationContext eureka;

  @BeforeEach
  void startEureka() throws Exception {
    eureka = Apps.eureka();
  }

  @AfterEach
  void stopEureka() {
    eureka.close();
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("waited 30 s for " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }

  @Test
  void serversRegisterTheirRpcxPortAndTheClientFindsThemThroughTheDiscoveryClient() throws Exception {
    String url = Apps.eurekaUrl(eureka);
    int fixed = freePort();
    String[] server = Apps.eurekaClient(url, true);
    ConfigurableApplicationContext first =
        Apps.run(Apps.GreeterServer.class, WebApplicationType.SERVLET, server,
            "spring.application.name=greeter-app", "server.port=0", "server.address=127.0.0.1",
            "rpcx.server.port=" + fixed, "rpcx.server.bind-address=127.0.0.1",
            "eureka.instance.instance-id=greeter-1");
    ConfigurableApplicationContext second =
        Apps.run(Apps.GreeterServer.class, WebApplicationType.SERVLET, server,
            "spring.application.name=greeter-app", "server.port=0", "server.address=127.0.0.1",
            "rpcx.server.port=0", "rpcx.server.bind-address=127.0.0.1",
            "eureka.instance.instance-id=greeter-2");
    int chosen = second.getEnvironment().getRequiredProperty("local.rpcx.server.port", Integer.class);
    try (LogCapture log = LogCapture.of("io.rpcx.spring.cloud");
        ConfigurableApplicationContext client =
        Apps.run(Apps.GreeterClient.class, WebApplicationType.NONE, Apps.eurekaClient(url, false),
            "spring.application.name=greeter-client",
            "rpcx.client.spring-cloud.service-ids.greeter=greeter-app",
            "rpcx.client.spring-cloud.refresh-interval=500ms")) {
      RpcxClient rpcx = client.getBean(RpcxClient.class);
      Greeter greeter = client.getBean(Greeter.class);
      await(
          () -> addresses(rpcx).equals(List.of("127.0.0.1:" + chosen, "127.0.0.1:" + fixed).stream().sorted().toList()),
          "both servers, the one on a port chosen at start too: " + addresses(rpcx));
      for (int i = 0; i < 20; i++) {
        assertEquals("Hello, Ada", greeter.greet("Ada"));
      }
      await(() -> rpcx.endpoints(Greeter.class).stream().allMatch(s -> s.callsStarted() > 0),
          "calls on both servers");
      HealthIndicator health =
          (HealthIndicator)
              client
                  .getBean("rpcxHealthContributor", CompositeHealthContributor.class)
                  .getContributor("client");
      assertEquals(Status.UP, health.health().getStatus(), "the health indicator, as with any source");

      // The port chosen at start reaches Eureka with the instance's next update: until then the
      // client may have seen the instance without it.
      assertTrue(
          log.warningsContaining("Skipping").stream().allMatch(warning -> warning.startsWith(
              "Skipping instance greeter-2 of service id 'greeter-app' (127.0.0.1:")),
          () -> log.warningsContaining("Skipping").toString());

      second.close(); // deregisters, and its RPCX server stops
      await(() -> addresses(rpcx).equals(List.of("127.0.0.1:" + fixed)), "one server left");
      assertEquals("Hello, Grace", greeter.greet("Grace"));
    } finally {
      first.close();
      second.close();
    }
  }

  private static List<String> addresses(RpcxClient rpcx) {
    return rpcx.endpoints(Greeter.class).stream().map(EndpointStatus::address).sorted().toList();
  }
}
