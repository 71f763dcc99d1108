package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sockets that connect and never speak hold no place among a server's {@code maxConnections}:
 * a connection counts once it sent a valid preface. The ones still in their handshake are bounded
 * on their own, in all and per source address; one more is closed on arrival, and a well-behaved
 * client from elsewhere connects and calls as if they were not there.
 */
@Timeout(60)
class SilentSocketsTest {
  /**
   * What this class's tests may log: the connections the server refuses, over its handshaking
   * limits or over {@code maxConnections}, and those closed at the preface timeout.
   */
  private static LogCapture logs;

  @BeforeAll
  static void captureLogs() {
    logs = LogCapture.warnings("io.rpcx");
  }

  @AfterAll
  static void onlyWhatTheTestsProvoked() {
    try {
      logs.assertOnly(
          Level.WARN,
          "WARN Refusing connection from /127\\.0\\.0\\.[123]:\\d+: .*\\(limit"
              + " (maxConnections|maxHandshakingConnections|maxHandshakingConnectionsPerAddress)"
              + " \\d+\\)( \\(\\d+ more connections refused .*\\))?",
          "WARN Closing connection from /127\\.0\\.0\\.[123]:\\d+: no (RPCX or HTTP/2 )?preface within 2000 ms");
    } finally {
      logs.close();
    }
  }

  private final List<Socket> sockets = new ArrayList<>();
  private RpcxServer server;

  @AfterEach
  void closeEverything() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
    if (server != null) {
      server.stop(Duration.ZERO);
    }
  }

  private RpcxServer start(RpcxServer.Builder builder) {
    server = builder.bindAddress("127.0.0.1").service(new EchoService.Impl()).build().start();
    return server;
  }

  /** Opens {@code count} sockets from {@code source} that send nothing. */
  private List<Socket> silent(String source, int count) throws IOException {
    List<Socket> opened = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Socket socket = new Socket();
      try {
        socket.bind(new InetSocketAddress(source, 0));
      } catch (BindException e) {
        socket.close();
        assumeTrue(false, "needs the loopback addresses 127.0.0.2 and on (Linux has them): " + e);
      }
      socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
      socket.setSoTimeout(100);
      sockets.add(socket);
      opened.add(socket);
    }
    return opened;
  }

  /** Whether the server closed {@code socket} (read sees its end within {@code millis}). */
  private static boolean closedByServer(Socket socket, long millis) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < deadline) {
      try {
        if (socket.getInputStream().read() == -1) {
          return true;
        }
      } catch (SocketTimeoutException e) {
        // still open
      } catch (IOException e) {
        return true; // reset
      }
    }
    return false;
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "not reached within 20 s");
      Thread.sleep(5);
    }
  }

  @Test
  void socketsThatNeverSpeakHoldNoPlaceAmongTheServersConnections() throws Exception {
    start(RpcxServer.builder().maxConnections(2));
    silent("127.0.0.1", 40);
    await(() -> server.stats().handshakingConnections() == 40);
    assertEquals(0, server.connectionCount());

    try (RpcxClient first = RpcxClient.builder().target("127.0.0.1", server.port()).build();
        RpcxClient second = RpcxClient.builder().target("127.0.0.1", server.port()).build();
        RpcxClient third = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      assertEquals("one", first.create(EchoService.class).echo("one"));
      assertEquals("two", second.create(EchoService.class).echo("two"));
      assertEquals(2, server.connectionCount());
      // The limit still holds for connections that speak.
      UnavailableException refused =
          assertThrows(UnavailableException.class, () -> third.create(EchoService.class).echo("3"));
      assertTrue(
          refused.getMessage().contains("the server has too many connections (limit 2)"),
          refused.getMessage());
    }
    assertEquals(40, server.stats().handshakingConnections());
  }

  @Test
  void oneAddressCannotTakeEveryHandshakingPlace() throws Exception {
    start(RpcxServer.builder().maxHandshakingConnectionsPerAddress(10));
    try (LogCapture log = LogCapture.rpcx();
        Bystander bystander = new Bystander(server.port())) {
      bystander.awaitProgress();
      List<Socket> flood = silent("127.0.0.2", 30);
      int closed = 0;
      for (Socket socket : flood) {
        if (closedByServer(socket, 200)) {
          closed++;
        }
      }
      assertEquals(20, closed, "the connections from 127.0.0.2 past 10 are closed on arrival");
      assertEquals(10, server.stats().handshakingConnections());
      bystander.awaitProgress();
      assertEquals(0, bystander.errors(), () -> "bystander: " + bystander.firstError());
      assertEquals(20, server.stats().refusedConnections());

      List<String> warnings = log.messages(Level.WARN);
      assertEquals(1, warnings.size(), "one line for the flood: " + warnings);
      assertTrue(
          warnings.get(0).matches(
              "Refusing connection from /127\\.0\\.0\\.2:\\d+: 10 connections from that address"
                  + " are still in their handshake \\(limit maxHandshakingConnectionsPerAddress"
                  + " 10\\)"),
          warnings.get(0));
    }
  }

  @Test
  void handshakingConnectionsAreBoundedInAllAndTheirPlacesComeBackWithThePrefaceTimeout()
      throws Exception {
    start(
        RpcxServer.builder()
            .maxHandshakingConnections(15)
            .maxHandshakingConnectionsPerAddress(10)
            .prefaceTimeout(Duration.ofSeconds(2)));
    try (LogCapture log = LogCapture.rpcx()) {
      silent("127.0.0.2", 10);
      List<Socket> second = silent("127.0.0.3", 10);
      await(() -> server.stats().handshakingConnections() == 15);
      int closed = 0;
      for (Socket socket : second) {
        if (closedByServer(socket, 100)) {
          closed++;
        }
      }
      assertEquals(5, closed, "past 15 in all, connections are closed on arrival");
      try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
        EchoService echo = client.create(EchoService.class);
        UnavailableException refused = assertThrows(UnavailableException.class, () -> echo.echo("x"));
        assertTrue(refused.isSafeToRetry(), refused.getMessage());

        // The silent sockets are closed at the preface timeout; their places come back.
        await(() -> server.stats().handshakingConnections() == 0);
        assertTrue(
            log.messages(Level.WARN).stream()
                .anyMatch(
                    line ->
                        line.matches(
                            "Refusing connection from /127\\.0\\.0\\.3:\\d+: 15 connections are"
                                + " still in their handshake \\(limit maxHandshakingConnections"
                                + " 15\\)"
                                // refusals close together share one line, which counts the rest
                                + "( \\(\\d+ more connections refused for this reason or another"
                                + " since the last line like this\\))?")),
            log.all());
      }
      try (RpcxClient client =
          RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
        assertEquals("back", client.create(EchoService.class).echo("back"));
      }
    }
  }
}
