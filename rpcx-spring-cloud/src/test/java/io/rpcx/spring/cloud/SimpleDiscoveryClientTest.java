package io.rpcx.spring.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Assertions;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring Cloud's simple DiscoveryClient (instances listed in properties): the client calls the
 * instance that publishes its RPCX port; one without it is skipped, named in a warning, and a
 * service id with none fails calls with a message naming the source and the service id.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimpleDiscoveryClientTest {
  /** Eureka's client is on this module's test class path; these applications do without it. */
  private static final String[] NO_EUREKA = {"eureka.client.enabled=false"};

  @Test
  void theClientCallsTheInstancesThatPublishTheirRpcxPort() {
    try (ConfigurableApplicationContext server =
            Apps.run(Apps.GreeterServer.class, WebApplicationType.NONE, new String[0],
                "rpcx.server.port=0", "rpcx.server.bind-address=127.0.0.1",
                "eureka.client.enabled=false");
        LogCapture log = LogCapture.of("io.rpcx.spring.cloud")) {
      int port = server.getEnvironment().getRequiredProperty("local.rpcx.server.port", Integer.class);
      String instances = "spring.cloud.discovery.client.simple.instances.greeter-app";
      try (ConfigurableApplicationContext client =
          Apps.run(Apps.GreeterClient.class, WebApplicationType.NONE, NO_EUREKA,
              instances + "[0].uri=http://127.0.0.1:8080",
              instances + "[0].instance-id=with-port",
              instances + "[0].metadata.rpcx-port=" + port,
              instances + "[1].uri=http://127.0.0.1:8081",
              instances + "[1].instance-id=without-port",
              "rpcx.client.spring-cloud.service-ids.greeter=greeter-app")) {
        assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
        assertEquals(
            java.util.List.of("127.0.0.1:" + port),
            client.getBean(RpcxClient.class).endpoints(Greeter.class).stream()
                .map(io.rpcx.client.EndpointStatus::address).toList());
        assertEquals(
            java.util.List.of(
                "Skipping instance without-port of service id 'greeter-app' (127.0.0.1:8081): no"
                    + " metadata rpcx-port (the port of its RPCX server; a server with"
                    + " rpcx-spring-cloud registers it)"),
            log.warningsContaining("Skipping"));
      }
    }
  }

  @Test
  void aServiceIdWithNoInstanceFailsCallsNamingTheSource() {
    try (LogCapture log = LogCapture.of("io.rpcx.spring.cloud");
        ConfigurableApplicationContext client =
            Apps.run(Apps.GreeterClient.class, WebApplicationType.NONE, NO_EUREKA)) {
      UnavailableException failure =
          Assertions.assertThrows(
              UnavailableException.class, () -> client.getBean(Greeter.class).greet("Ada"));
      assertTrue(
          failure.getMessage().startsWith(
              "greeter/greet was not sent: Spring Cloud discovery (Composite Discovery Client) of"
                  + " service id 'greeter' lists no server for service 'greeter': Spring Cloud"
                  + " discovery (Composite Discovery Client) lists no instance of service id"
                  + " 'greeter'"),
          failure.getMessage());
      assertEquals(1, log.warningsContaining("lists no instance of service id 'greeter'").size());
      assertTrue(log.messages(Level.ERROR).isEmpty());
    }
  }
}
