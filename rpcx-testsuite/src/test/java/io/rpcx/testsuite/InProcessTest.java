package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.ServiceRegistrar;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-process transport: a client and a server of one JVM, built with {@code inProcess(name)},
 * talk through Netty's local channels with the pipeline TCP connections have. Mistakes fail with
 * a message naming the server's name; none hangs.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@SuppressWarnings({"try"}) // scopes held open for their bodies
class InProcessTest {

  private static RpcxServer server(String name) {
    return RpcxServer.builder()
        .inProcess(name)
        .service(new EchoService.Impl())
        .shutdownGracePeriod(Duration.ofSeconds(1))
        .build();
  }

  @Test
  void aClientCallsTheInProcessServerOfItsNameOverOneConnection() throws Exception {
    try (RpcxServer server = server("in-process-echo").start();
        RpcxClient client = RpcxClient.builder().inProcess("in-process-echo").build()) {
      EchoService echo = client.create(EchoService.class);
      assertEquals("hello", echo.echo("hello"));
      assertEquals("LOUD", echo.upperCase("loud"));
      assertEquals("later", echo.echoAsync("later").get(10, TimeUnit.SECONDS));
      assertEquals(1, server.connectionCount());
      assertEquals(1, client.stats().openConnections());
    }
  }

  @Test
  void anInProcessServerHasNoPort() {
    try (RpcxServer server = server("no-port").start()) {
      IllegalStateException thrown = assertThrows(IllegalStateException.class, server::port);
      assertEquals("the server serves in-process as 'no-port' and has no port", thrown.getMessage());
    }
  }

  @Test
  void callsToANameNoServerHasFailAsUnavailableNamingIt() {
    try (RpcxClient client =
        RpcxClient.builder().inProcess("nobody-here").maxAttempts(1).build()) {
      UnavailableException thrown =
          assertThrows(
              UnavailableException.class, () -> client.create(EchoService.class).echo("anyone?"));
      assertEquals(
          "echo/echo was not sent to in-process server 'nobody-here': cannot connect to"
              + " in-process server 'nobody-here': no server of that name runs in this JVM",
          thrown.getMessage());
      assertTrue(thrown.isSafeToRetry());
    }
  }

  @Test
  void aSecondServerOfARunningServersNameFailsToStartNamingIt() {
    try (RpcxServer first = server("taken").start()) {
      RpcxServer second = server("taken");
      IllegalStateException thrown = assertThrows(IllegalStateException.class, second::start);
      assertEquals(
          "cannot serve in-process as 'taken': another server of this JVM runs under that name",
          thrown.getMessage());
      assertFalse(second.isRunning());
      second.stop();
    }
  }

  @Test
  void theNameIsFreeAgainOnceItsServerStopped() {
    server("reused").start().stop();
    try (RpcxServer again = server("reused").start();
        RpcxClient client = RpcxClient.builder().inProcess("reused").build()) {
      assertEquals("again", client.create(EchoService.class).echo("again"));
    }
  }

  @Test
  void tlsAndInProcessCannotBeCombined() {
    IllegalArgumentException thrown =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxClient.builder().inProcess("secret").tls(TlsConfig.client().build()).build());
    assertEquals(
        "tls(...) and inProcess(\"secret\") cannot be combined: in-process connections never leave"
            + " the JVM, so there is nothing to encrypt",
        thrown.getMessage());
  }

  @Test
  void anInProcessClientTakesNoOtherTargets() {
    IllegalArgumentException thrown =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxClient.builder().inProcess("here").target("127.0.0.1", 9000).build());
    assertEquals(
        "inProcess(\"here\") cannot be combined with target(...), targets(...) or discovery(...):"
            + " an in-process client calls only the in-process server of that name",
        thrown.getMessage());
  }

  @Test
  void anInProcessServerCannotRegister() {
    ServiceRegistrar registrar =
        new ServiceRegistrar() {
          @Override
          public Registration register(String service, ServiceEndpoint endpoint) {
            return () -> {};
          }

          @Override
          public String describe() {
            return "a registry";
          }
        };
    IllegalArgumentException thrown =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxServer.builder().inProcess("hidden").registrar(registrar).build());
    assertEquals(
        "registrar(...) and inProcess(\"hidden\") cannot be combined: clients in other processes"
            + " could not reach an in-process server",
        thrown.getMessage());
  }

  @Test
  void aNameIsSomePrintableAsciiCharactersWithoutSpaces() {
    IllegalArgumentException empty =
        assertThrows(IllegalArgumentException.class, () -> RpcxServer.builder().inProcess(""));
    assertEquals(
        "inProcess name: '' (expected: 1 to 200 printable ASCII characters, no spaces)",
        empty.getMessage());
    IllegalArgumentException spaced =
        assertThrows(IllegalArgumentException.class, () -> RpcxClient.builder().inProcess("a b"));
    assertEquals(
        "inProcess name: 'a b' (expected: 1 to 200 printable ASCII characters, no spaces)",
        spaced.getMessage());
    assertThrows(NullPointerException.class, () -> RpcxClient.builder().inProcess(null));
  }
}
