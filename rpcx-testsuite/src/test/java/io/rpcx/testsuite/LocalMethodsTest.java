package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Object methods and default methods of a proxy run locally and never touch the network. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LocalMethodsTest {

  /** A port where nothing listens: any network use would fail. */
  private static int deadPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void objectAndDefaultMethodsWorkWithoutAServer() throws Exception {
    int port = deadPort();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", port).build()) {
      EchoService echo = client.create(EchoService.class);
      assertEquals(
          "RPCX client of service 'echo' (io.rpcx.testsuite.EchoService) at 127.0.0.1:" + port,
          echo.toString());
      assertEquals(echo, echo);
      assertNotEquals(echo, new Object());
      assertEquals(System.identityHashCode(echo), echo.hashCode());
      assertEquals("abab", echo.twice("ab"));
      assertSame(echo, client.create(EchoService.class), "one proxy per interface");
      UnavailableException remote = assertThrows(UnavailableException.class, () -> echo.echo("x"));
      assertTrue(remote.isSafeToRetry(), "a call that could not connect was never sent");
      assertEquals(
          "echo/echo was not sent to 127.0.0.1:" + port + ": cannot connect to 127.0.0.1:"
              + port + ": Connection refused",
          remote.getMessage());
    }
  }
}
