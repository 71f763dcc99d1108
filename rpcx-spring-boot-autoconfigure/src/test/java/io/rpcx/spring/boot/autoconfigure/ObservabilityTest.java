package io.rpcx.spring.boot.autoconfigure;

import static io.rpcx.spring.boot.autoconfigure.GracefulShutdownTest.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With Spring Boot's actuator: calls are timed on both sides through the application's
 * ObservationRegistry and MeterRegistry, the client's and server's gauges are bound, stream calls
 * count their messages, and the {@code rpcx} health contributor tells how the server and the
 * client's servers are.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ObservabilityTest {

  @Test
  void aCallIsTimedOnBothSides() throws Exception {
    try (ConfigurableApplicationContext server = Apps.server();
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      client.getBean(Greeter.class).greet("Ada");

      MeterRegistry clientMeters = client.getBean(MeterRegistry.class);
      Timer clientTimer =
          clientMeters
              .find("rpc.client.call.duration")
              .tag("rpc.method", "greeter/greet")
              .tag("rpc.status_code", "OK")
              .tag("server.address", "127.0.0.1")
              .timer();
      assertNotNull(clientTimer, () -> "client timers: " + clientMeters.getMeters());
      assertEquals(1, clientTimer.count());
      assertNotNull(clientMeters.find("rpcx.client.calls.active").gauge());
      assertNotNull(clientMeters.find("rpcx.client.connections.open").gauge());

      MeterRegistry serverMeters = server.getBean(MeterRegistry.class);
      await(
          () ->
              serverMeters
                      .find("rpc.server.call.duration")
                      .tag("rpc.method", "greeter/greet")
                      .tag("rpc.status_code", "OK")
                      .timer()
                  != null,
          "the server's timer");
      assertEquals(
          1.0,
          serverMeters.find("rpcx.server.connections.open").gauge().value(),
          "one client connected");

      assertStreamMessagesCounted(client, server);
    }
  }

  @Test
  void rpcxTimesItsCallsAndSpringBootsHandlerEveryOtherObservation() throws Exception {
    try (ConfigurableApplicationContext server = Apps.server();
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      client.getBean(Greeter.class).greet("Ada");
      MeterRegistry clientMeters = client.getBean(MeterRegistry.class);
      Timer timer = clientMeters.get("rpc.client.call.duration").tag("error", "none").timer();
      assertEquals(1, timer.count(), "Micrometer's error tag, as its own handler gives it");
      assertNull(
          clientMeters.find("rpc.client.call.duration.active").longTaskTimer(),
          () -> "timed by RpcxMeterObservationHandler, which makes no long-task timer: "
              + clientMeters.getMeters());

      ObservationRegistry observations = client.getBean(ObservationRegistry.class);
      Observation.createNotStarted("inventory.check", observations).observe(() -> {});
      assertEquals(1, clientMeters.get("inventory.check").timer().count());
      assertNotNull(
          clientMeters.find("inventory.check.active").longTaskTimer(),
          "Spring Boot's own handler is still there for the application's observations");
    }
  }

  /** A stream of two greetings counts two messages on each side, once. */
  private static void assertStreamMessagesCounted(
      ConfigurableApplicationContext client, ConfigurableApplicationContext server)
      throws Exception {
    try (Stream<String> greetings = client.getBean(Greeter.class).greetEach(List.of("Ada", "Bo"))) {
      assertEquals(List.of("Hello, Ada", "Hello, Bo"), greetings.toList());
    }
    MeterRegistry clientMeters = client.getBean(MeterRegistry.class);
    assertEquals(
        2.0,
        clientMeters
            .get("rpcx.client.stream.messages.received")
            .tag("rpc.method", "greeter/greetEach")
            .counter()
            .count());
    MeterRegistry serverMeters = server.getBean(MeterRegistry.class);
    await(
        () -> {
          var sent =
              serverMeters
                  .find("rpcx.server.stream.messages.sent")
                  .tag("rpc.method", "greeter/greetEach")
                  .counter();
          return sent != null && sent.count() == 2.0;
        },
        "the server's count of the messages it sent");
  }

  @Test
  void callsTheBearerTokenCheckRefusesAreTimedToo() throws Exception {
    try (ConfigurableApplicationContext server = Apps.server("rpcx.server.bearer-tokens=s3cret");
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      assertThrows(RuntimeException.class, () -> client.getBean(Greeter.class).greet("Ada"));
      MeterRegistry serverMeters = server.getBean(MeterRegistry.class);
      await(
          () ->
              serverMeters
                      .find("rpc.server.call.duration")
                      .tag("rpc.method", "greeter/greet")
                      .tag("rpc.status_code", "UNAUTHENTICATED")
                      .timer()
                  != null,
          "the refused call's timer, with its status");
    }
  }

  @Test
  void metricsOnlyRecordsTheSameTimersStraightIntoTheMeterRegistry() throws Exception {
    try (ConfigurableApplicationContext server =
            Apps.server("rpcx.observations.metrics-only=true");
        ConfigurableApplicationContext client =
            Apps.client(Apps.port(server), "rpcx.observations.metrics-only=true")) {
      client.getBean(Greeter.class).greet("Ada");
      MeterRegistry clientMeters = client.getBean(MeterRegistry.class);
      Timer timer =
          clientMeters
              .find("rpc.client.call.duration")
              .tag("rpc.method", "greeter/greet")
              .tag("rpc.status_code", "OK")
              .timer();
      assertNotNull(timer, () -> "client timers: " + clientMeters.getMeters());
      assertEquals(1, timer.count());
      assertNull(
          clientMeters.find("rpc.client.call.duration.active").longTaskTimer(),
          "no Observation: its handler would have made the long-task timer");
      MeterRegistry serverMeters = server.getBean(MeterRegistry.class);
      await(
          () -> serverMeters.find("rpc.server.call.duration").tag("rpc.method", "greeter/greet").timer()
              != null,
          "the server's timer");

      assertStreamMessagesCounted(client, server);
    }
  }

  @Test
  void observationsCanBeTurnedOff() {
    try (ConfigurableApplicationContext server = Apps.server("rpcx.observations.enabled=false");
        ConfigurableApplicationContext client =
            Apps.client(Apps.port(server), "rpcx.observations.enabled=false")) {
      client.getBean(Greeter.class).greet("Ada");
      assertNull(client.getBean(MeterRegistry.class).find("rpc.client.call.duration").timer());
      assertNull(client.getBean(MeterRegistry.class).find("rpcx.client.calls.active").gauge());
      assertNull(server.getBean(MeterRegistry.class).find("rpc.server.call.duration").timer());
    }
  }

  @Test
  void healthOfTheServerAndOfTheClientsServers() throws Exception {
    ConfigurableApplicationContext server = Apps.server();
    try (ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      client.getBean(Greeter.class).greet("Ada");
      String address = "127.0.0.1:" + Apps.port(server);

      Health serverHealth = part(server, "server").health();
      assertEquals(Status.UP, serverHealth.getStatus());
      assertEquals("serving", serverHealth.getDetails().get("state"));
      assertEquals(Apps.port(server), serverHealth.getDetails().get("port"));

      HealthIndicator clientHealth = part(client, "client");
      assertEquals(Status.UP, clientHealth.health().getStatus());
      assertEquals(
          Map.of("greeter", Map.of(address, "available")),
          clientHealth.health().getDetails().get("services"));

      server.close(); // no call finds out: the client knows by itself
      await(
          () -> clientHealth.health().getStatus().equals(Status.DOWN),
          "the client's health to see the server gone");
      Health down = clientHealth.health();
      assertEquals(List.of("greeter"), down.getDetails().get("withoutAvailableServer"));
    } finally {
      server.close();
    }
  }

  private static HealthIndicator part(ConfigurableApplicationContext context, String name) {
    return (HealthIndicator)
        context
            .getBean("rpcxHealthContributor", CompositeHealthContributor.class)
            .getContributor(name);
  }
}
