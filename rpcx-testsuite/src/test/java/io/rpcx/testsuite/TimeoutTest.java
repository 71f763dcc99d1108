package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.testing.RpcxExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Timeouts come from the method, else the interface, else the client; they bound every wait, and
 * they travel with the request so the server drops work nobody waits for any more.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimeoutTest {
  private final ControlledService.Impl service = new ControlledService.Impl();

  @RegisterExtension
  final RpcxExtension rpcx =
      RpcxExtension.withServices(service)
          .server(server -> server.workerThreads(1))
          .client(client -> client.defaultTimeout(Duration.ofMillis(300)));

  /** The same remote service with an interface-wide timeout. */
  @RPCXClient(name = "controlled", timeoutMillis = 250)
  interface Impatient {
    String hold(String text);

    CompletableFuture<String> holdAsync(String text);

    String sleep(String text, long millis);
  }

  /** The same remote service with a timeout on the method, overriding the interface's. */
  @RPCXClient(name = "controlled", timeoutMillis = 5_000)
  interface Brief {
    @Method(value = "hold", timeoutMillis = 200)
    String holdBriefly(String text);
  }

  /** The same remote service without any timeout of its own. */
  @RPCXClient(name = "controlled")
  interface Unconfigured {
    String hold(String text);
  }

  @AfterEach
  void releaseHeldCalls() {
    service.release();
  }

  @Test
  void aMethodTimeoutWinsOverTheInterfaceTimeout() {
    int port = rpcx.port();
    long start = System.nanoTime();
    CallTimeoutException e =
        assertThrows(
            CallTimeoutException.class,
            () -> rpcx.create(Brief.class).holdBriefly("x"));
    assertElapsedBetween(start, 200, 2_000);
    assertEquals(
        "controlled/hold timed out after 200 ms waiting for 127.0.0.1:" + port, e.getMessage());
  }

  @Test
  void anInterfaceTimeoutWinsOverTheClientDefault() {
    long start = System.nanoTime();
    CallTimeoutException e =
        assertThrows(CallTimeoutException.class, () -> rpcx.create(Impatient.class).hold("x"));
    assertElapsedBetween(start, 250, 2_000);
    assertTrue(e.getMessage().contains("after 250 ms"), e.getMessage());
  }

  @Test
  void theClientDefaultAppliesOtherwise() {
    long start = System.nanoTime();
    CallTimeoutException e =
        assertThrows(CallTimeoutException.class, () -> rpcx.create(Unconfigured.class).hold("x"));
    assertElapsedBetween(start, 300, 2_000);
    assertTrue(e.getMessage().contains("after 300 ms"), e.getMessage());
  }

  @Test
  void anAsynchronousCallTimesOutThroughItsFuture() {
    CompletableFuture<String> future = rpcx.create(Impatient.class).holdAsync("x");
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
    assertInstanceOf(CallTimeoutException.class, e.getCause());
  }

  @Test
  void theServerDropsQueuedWorkWhoseCallerGaveUp() throws Exception {
    service.holdNext(1);
    // The only worker thread is held by this call...
    CompletableFuture<String> blocker =
        CompletableFuture.supplyAsync(() -> rpcx.create(ControlledService.class).hold("blocker"), ThreadPerTask.EXECUTOR);
    assertTrue(service.awaitHeld(5));
    // ...so this one waits in the server's queue until its 250 ms are over.
    assertThrows(CallTimeoutException.class, () -> rpcx.create(Impatient.class).sleep("late", 0));
    // The server counts the 250 ms from when the request arrived, a little after the client
    // started counting (later still on a loaded machine): let its deadline pass surely before the
    // queued call can be picked up.
    Thread.sleep(1_000);
    service.release();
    assertEquals("blocker", blocker.get(5, TimeUnit.SECONDS));
    awaitNoCallInFlight();
    assertEquals(1, service.startedCount(), "the expired call never ran");
  }

  private void awaitNoCallInFlight() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (rpcx.server().callsInFlight() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(0, rpcx.server().callsInFlight());
  }

  private static void assertElapsedBetween(long startNanos, long minMillis, long maxMillis) {
    long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    assertTrue(elapsed >= minMillis && elapsed <= maxMillis,
        "took " + elapsed + " ms, expected " + minMillis + ".." + maxMillis);
  }
}
