package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer that stops answering is found out by keepalive pings; failed connection attempts back off
 * exponentially; no caller waits past its timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LivenessTest {
  /**
   * What this class's tests may log: the ejection of a server that stops answering, its
   * unanswered ping, and a server stopped with a call in flight.
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
          "WARN Ejecting 127\\.0\\.0\\.1:\\d+ for at least \\d+ ms after \\d+ failed calls in a"
              + " row; probing it in the background",
          "WARN Closing connection (from /127\\.0\\.0\\.1|to 127\\.0\\.0\\.1):\\d+: no answer"
              + " to a keepalive ping within \\d+ ms",
          "WARN Grace period of \\d+ ms ended with \\d+ calls still running; closing connections");
    } finally {
      logs.close();
    }
  }


  @Test
  void aServerThatStopsAnsweringIsDetectedAndItsCallsFailAsUnavailable() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(1);
    RpcxServer server = RpcxServer.builder().bindAddress("127.0.0.1").service(service).build().start();
    try (FaultProxy proxy = new FaultProxy(server.port());
        RpcxClient client =
            RpcxClient.builder()
                .target("127.0.0.1", proxy.port())
                .keepAlive(Duration.ofMillis(300), Duration.ofMillis(300))
                .defaultTimeout(Duration.ofSeconds(30))
                .build()) {
      ControlledService controlled = client.create(ControlledService.class);
      CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> controlled.hold("x"), ThreadPerTask.EXECUTOR);
      assertTrue(service.awaitHeld(10));
      long start = System.nanoTime();
      proxy.freeze(true); // the server is "paused": nothing comes back, nothing is closed
      ExecutionException e = assertThrows(ExecutionException.class, () -> held.get(20, TimeUnit.SECONDS));
      long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      UnavailableException unavailable = assertInstanceOf(UnavailableException.class, e.getCause());
      assertTrue(
          unavailable.getMessage().contains(
              "did not answer a keepalive ping within 300 ms (paused or unreachable)"),
          unavailable.getMessage());
      assertTrue(elapsed < 5_000, "detected after " + elapsed + " ms, far before the 30 s timeout");
    } finally {
      service.release();
      server.stop(Duration.ZERO);
    }
  }

  @Test
  void failedConnectionAttemptsBackOffAndRecoverWhenTheServerReturns() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    try (RpcxClient client =
        RpcxClient.builder()
            .target("127.0.0.1", port)
            // Long enough that the second call surely comes within it, even on a stalled machine.
            .reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(4))
            .build()) {
      EchoService echo = client.create(EchoService.class);
      UnavailableException refused = assertThrows(UnavailableException.class, () -> echo.echo("1"));
      assertTrue(refused.getMessage().contains("Connection refused"), refused.getMessage());
      UnavailableException backingOff = assertThrows(UnavailableException.class, () -> echo.echo("2"));
      assertTrue(backingOff.isSafeToRetry());
      assertTrue(
          backingOff.getMessage().matches(
              "echo/echo was not sent to 127.0.0.1:" + port + ": reconnecting in \\d+ ms after:"
                  + " cannot connect to 127.0.0.1:" + port + ": Connection refused"),
          backingOff.getMessage());

      RpcxServer server =
          RpcxServer.builder().bindAddress("127.0.0.1").port(port).service(new EchoService.Impl())
              .build().start();
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String answer = null;
        while (answer == null && System.nanoTime() < deadline) {
          try {
            answer = echo.echo("back");
          } catch (UnavailableException e) {
            Thread.sleep(50); // waiting out the backoff, which is what is being tested
          }
        }
        assertEquals("back", answer);
      } finally {
        server.stop();
      }
    }
  }

  @Test
  void aCallWaitingForASlowConnectionStillTimesOutOnTime() throws Exception {
    // A listener that never accepts: the TCP handshake completes, the RPCX handshake never does.
    try (ServerSocket silent = new ServerSocket(0, 1)) {
      try (RpcxClient client =
          RpcxClient.builder().target("127.0.0.1", silent.getLocalPort())
              .defaultTimeout(Duration.ofMillis(300)).build()) {
        long start = System.nanoTime();
        ExecutionException e =
            assertThrows(
                ExecutionException.class,
                () -> client.create(EchoService.class).echoAsync("x").get(10, TimeUnit.SECONDS));
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertInstanceOf(io.rpcx.core.CallTimeoutException.class, e.getCause());
        assertTrue(elapsed < 2_000, "timed out after " + elapsed + " ms");
        long blockingStart = System.nanoTime();
        assertThrows(io.rpcx.core.CallTimeoutException.class, () -> client.create(EchoService.class).echo("y"));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - blockingStart) < 2_000);
      }
    }
  }
}
