package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An idle client tells the truth about a server that left, without a call to find out: a server
 * that says it is going away (GOAWAY) is GOING_AWAY at once, then UNREACHABLE when it does not
 * answer a reconnect; a server whose connection breaks and whose port refuses is UNREACHABLE at
 * once; a server back on its address is AVAILABLE again, found by the client's background
 * reconnects. Each change is one log line naming the server. A server that only retires a
 * connection (its maximum age) stays AVAILABLE, with nothing said.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerDepartureTest {
  private static final String CONNECTOR = "io.rpcx.client.internal.transport.ServerConnector";

  @Test
  void aServerThatStopsIsReportedAtOnceAndAgainWhenItIsBack() throws Exception {
    RpcxServer server = server(0);
    int port = server.port();
    String address = "127.0.0.1:" + port;
    try (LogCapture logs = LogCapture.rpcx();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", port).build()) {
      assertEquals("hi", client.create(EchoService.class).echo("hi"));
      assertEquals(EndpointStatus.State.AVAILABLE, state(client));

      server.stop(); // GOAWAY, then the port closes: no call is made from here on
      await(() -> state(client) != EndpointStatus.State.AVAILABLE, "the server reported gone");
      await(() -> state(client) == EndpointStatus.State.UNREACHABLE, "a reconnect refused");
      assertEquals(
          List.of(
              "INFO RPCX server " + address + " is going away (the server is shutting down): no"
                  + " new calls go to it until it answers again"),
          logs.events(CONNECTOR, Level.INFO).subList(0, 1));
      assertTrue(
          logs.events(CONNECTOR, Level.INFO).get(1).startsWith(
              "INFO RPCX server " + address + ", which said it was going away, is gone: cannot"
                  + " connect to " + address),
          logs.events(CONNECTOR, Level.INFO).toString());

      server = server(port); // back on its address
      await(() -> state(client) == EndpointStatus.State.AVAILABLE, "the server back");
      assertEquals(
          "INFO RPCX server " + address + " answers again",
          logs.events(CONNECTOR, Level.INFO).get(2));
      assertEquals(List.of(), logs.events(CONNECTOR, Level.WARN), "nothing unexpected");
      assertEquals("back", client.create(EchoService.class).echo("back"));
    } finally {
      server.stop();
    }
  }

  @Test
  void aServerWhoseConnectionBreaksAndCannotBeReachedIsUnreachableAtOnce() throws Exception {
    RpcxServer server = server(0);
    try (LogCapture logs = LogCapture.rpcx()) {
      FaultProxy proxy = new FaultProxy(server.port());
      String address = "127.0.0.1:" + proxy.port();
      try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", proxy.port()).build()) {
        assertEquals("hi", client.create(EchoService.class).echo("hi"));

        proxy.close(); // the connection breaks (no GOAWAY), and its port refuses
        await(() -> state(client) == EndpointStatus.State.UNREACHABLE, "the server unreachable");
        List<String> warnings = logs.events(CONNECTOR, Level.WARN);
        assertEquals(1, warnings.size(), warnings.toString());
        // The reconnect is refused, or accepted by the closing proxy and cut before the handshake.
        assertTrue(
            warnings.get(0).startsWith(
                    "WARN RPCX server " + address + " is unreachable: cannot connect to " + address)
                || warnings.get(0).startsWith(
                    "WARN RPCX server " + address + " is unreachable: " + address
                        + " closed the connection before completing the RPCX handshake"),
            warnings.get(0));
      }
    } finally {
      server.stop();
    }
  }

  @Test
  void aServerThatRetiresConnectionsAtTheirMaximumAgeStaysAvailable() throws Exception {
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .service(new EchoService.Impl())
            .maxConnectionAge(Duration.ofMillis(200), Duration.ofSeconds(5))
            .build()
            .start();
    try (LogCapture logs = LogCapture.rpcx();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      EchoService echo = client.create(EchoService.class);
      long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_000); // about 5 ages
      int calls = 0;
      while (System.nanoTime() < end) {
        assertEquals("hi", echo.echo("hi"));
        assertEquals(EndpointStatus.State.AVAILABLE, state(client), "after " + calls + " calls");
        calls++;
      }
      assertTrue(
          logs.events("io.rpcx.server.internal.transport.ConnectionAge", Level.DEBUG).stream()
              .anyMatch(line -> line.contains("the connection reached its maximum age")),
          "the connection was retired at least once: " + logs.all());
      assertEquals(List.of(), logs.events(CONNECTOR, Level.INFO), "nothing said of the server");
    } finally {
      server.stop();
    }
  }

  private static RpcxServer server(int port) {
    return RpcxServer.builder()
        .bindAddress("127.0.0.1")
        .port(port)
        .service(new EchoService.Impl())
        .shutdownGracePeriod(Duration.ofSeconds(5))
        .build()
        .start();
  }

  private static EndpointStatus.State state(RpcxClient client) {
    return client.endpoints(EchoService.class).get(0).state();
  }

  /** Waits for {@code condition}: at most 5 s, where a client that needs a call to see never does. */
  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within 5 s: " + what);
      }
      Thread.sleep(5);
    }
  }
}
