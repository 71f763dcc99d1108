package io.rpcx.spring.boot.autoconfigure;

import static io.rpcx.spring.boot.autoconfigure.GracefulShutdownTest.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.spring.boot.autoconfigure.greeter.ClientApp;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With {@code rpcx.zookeeper.connect-string}, the server registers its services in ZooKeeper and
 * the client finds them there; a closing server withdraws, and the client's health says DOWN once
 * no server of the service is available.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZooKeeperTest {
  private TestingServer zooKeeper;

  @BeforeEach
  void startZooKeeper() throws Exception {
    zooKeeper = new TestingServer(true);
  }

  @AfterEach
  void stopZooKeeper() throws Exception {
    zooKeeper.close();
  }

  @Test
  void theClientFindsTheServersInZooKeeperAndSeesOneWithdraw() throws Exception {
    String zookeeper = "rpcx.zookeeper.connect-string=" + zooKeeper.getConnectString();
    ConfigurableApplicationContext first =
        Apps.server(zookeeper, "rpcx.server.advertise-host=127.0.0.1");
    ConfigurableApplicationContext second =
        Apps.server(zookeeper, "rpcx.server.advertise-host=127.0.0.1");
    try (ConfigurableApplicationContext client = Apps.run(ClientApp.class, zookeeper)) {
      assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      assertEquals(
          1, client.getBeansOfType(ZooKeeperRegistry.class).size(), "one registry in each context");
      RpcxClient rpcx = client.getBean(RpcxClient.class);
      String secondAddress = "127.0.0.1:" + Apps.port(second);
      await(() -> addresses(rpcx).size() == 2, "the client to know both servers");
      HealthIndicator health =
          (HealthIndicator)
              client
                  .getBean("rpcxHealthContributor", CompositeHealthContributor.class)
                  .getContributor("client");
      assertEquals(Status.UP, health.health().getStatus());

      first.close(); // withdraws from ZooKeeper before it stops
      await(
          () -> addresses(rpcx).equals(List.of(secondAddress)),
          "the client to see the first server withdraw");
      assertEquals("Hello, Bo", client.getBean(Greeter.class).greet("Bo"));

      try (LogCapture logs = LogCapture.of("io.rpcx")) {
        second.close(); // the last one: the client keeps it listed (docs/CLUSTER.md) but cannot reach it
        await(
            () -> {
              try {
                client.getBean(Greeter.class).greet("Cy");
              } catch (RuntimeException expected) {
                // unavailable
              }
              return health.health().getStatus().equals(Status.DOWN);
            },
            "the client's health to see no server available");
        Health down = health.health();
        assertEquals(List.of("greeter"), down.getDetails().get("withoutAvailableServer"));
        String keeping =
            "WARN zookeeper 127\\.0\\.0\\.1:\\d+/rpcx lists no server for service 'greeter' any"
                + " more; keeping \\[" + secondAddress.replace(".", "\\.") + "\\] until it lists"
                + " some";
        assertTrue(logs.awaitLine(Level.WARN, keeping), logs::all);
        logs.assertOnly(
            Level.WARN,
            keeping,
            "WARN Ejecting " + secondAddress.replace(".", "\\.") + " for at least \\d+ ms after"
                + " \\d+ failed calls in a row; probing it in the background");
      }
    } finally {
      first.close();
      second.close();
    }
  }

  private static List<String> addresses(RpcxClient client) {
    return client.endpoints(Greeter.class).stream().map(EndpointStatus::address).toList();
  }
}
