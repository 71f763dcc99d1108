package io.rpcx.testing.junit6;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.testing.Faults;
import io.rpcx.testing.RpcxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The test kit's extension on JUnit 6 (rpcx-testing is built and tested on JUnit 5): this module's
 * tests run on the JUnit 6 Spring Boot 4 needs, so here the extension runs per class and per test,
 * over TCP and in-process, with a fault, and its leak check after each test.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RpcxExtensionOnJUnit6Test {

  @RPCXClient(name = "ping")
  interface Ping {
    String ping(String text);
  }

  @RPCXServer(name = "ping")
  static final class PingImpl implements Ping {
    @Override
    public String ping(String text) {
      return "pong " + text;
    }
  }

  @RegisterExtension static final RpcxExtension perClass = RpcxExtension.withServices(new PingImpl());

  @RegisterExtension
  final RpcxExtension perTest =
      RpcxExtension.withServices(new PingImpl())
          .inProcess()
          .faults(Faults.builder().answer("ping/ping", StatusCode.UNAVAILABLE, "closed").build())
          .client(client -> client.maxAttempts(1));

  @Test
  void runsOnJUnit6() {
    String version = Test.class.getPackage().getImplementationVersion();
    assertTrue(version != null && version.startsWith("6."), "JUnit Jupiter " + version);
  }

  @Test
  void aPerClassServerOverTcpAnswers() {
    assertEquals("pong tcp", perClass.create(Ping.class).ping("tcp"));
  }

  @Test
  void aPerTestInProcessServerInjectsItsFault() {
    UnavailableException thrown =
        Assertions.assertThrows(
            UnavailableException.class, () -> perTest.create(Ping.class).ping("local"));
    assertEquals(
        "ping/ping failed on in-process server '" + perTest.inProcessName() + "': closed",
        thrown.getMessage());
  }
}
