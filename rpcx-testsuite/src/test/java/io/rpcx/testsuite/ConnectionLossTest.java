package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** When a connection closes, every call pending on it fails at once; the next call reconnects. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConnectionLossTest {
  /**
   * What this class's tests may log: the ejection of the server it loses, stopped with calls in
   * flight.
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
          "WARN Grace period of \\d+ ms ended with \\d+ calls still running; closing connections");
    } finally {
      logs.close();
    }
  }


  @Test
  void pendingCallsFailAtOnceWhenTheConnectionIsLostAndTheNextCallReconnects() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(10);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
    int port = server.port();
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", port).defaultTimeout(Duration.ofSeconds(20)).build()) {
      ControlledService controlled = client.create(ControlledService.class);
      List<CompletableFuture<String>> calls = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        String text = "call-" + i;
        calls.add(CompletableFuture.supplyAsync(() -> controlled.hold(text), ThreadPerTask.EXECUTOR));
      }
      assertTrue(service.awaitHeld(10), "all ten calls reached the server");

      long start = System.nanoTime();
      server.stop(Duration.ZERO); // no grace: connections close with calls in flight
      for (CompletableFuture<String> call : calls) {
        ExecutionException e =
            org.junit.jupiter.api.Assertions.assertThrows(
                ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
        UnavailableException unavailable = assertInstanceOf(UnavailableException.class, e.getCause());
        assertFalse(unavailable.isSafeToRetry(), "the calls were sent and may have run");
        assertTrue(
            unavailable.getMessage().startsWith(
                "connection to 127.0.0.1:" + port + " closed while controlled/hold was in flight"),
            unavailable.getMessage());
      }
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(elapsedMillis < 3_000, "failed after " + elapsedMillis + " ms, not at the timeout");
      service.release();

      RpcxServer restarted =
          RpcxServer.builder().bindAddress("127.0.0.1").port(port).service(new EchoService.Impl())
              .build().start();
      try {
        assertEquals("back", client.create(EchoService.class).echo("back"));
      } finally {
        restarted.stop(Duration.ofSeconds(1));
      }
    } finally {
      server.stop(Duration.ZERO);
    }
  }
}
