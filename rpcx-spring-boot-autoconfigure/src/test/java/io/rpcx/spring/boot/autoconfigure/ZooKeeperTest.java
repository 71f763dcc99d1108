package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.spring.boot.autoconfigure.greeter.ClientApp;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With {@code rpcx.zookeeper.connect-string}, the server registers its services in ZooKeeper and
 * the client finds them there; a closing server withdraws first.
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
  void theClientFindsTheServerInZooKeeper() {
    String zookeeper = "rpcx.zookeeper.connect-string=" + zooKeeper.getConnectString();
    try (ConfigurableApplicationContext server =
            Apps.server(zookeeper, "rpcx.server.advertise-host=127.0.0.1");
        ConfigurableApplicationContext client = Apps.run(ClientApp.class, zookeeper)) {
      assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      assertEquals(
          1, client.getBeansOfType(ZooKeeperRegistry.class).size(), "one registry in each context");
    }
  }
}
