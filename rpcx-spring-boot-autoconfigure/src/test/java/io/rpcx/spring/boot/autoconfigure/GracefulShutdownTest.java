package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.rpcx.core.UnavailableException;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import io.rpcx.spring.boot.autoconfigure.greeter.GreeterImpl;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Closing the server's context stops the server within Spring Boot's graceful shutdown: its
 * clients are told, and calls in flight finish.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GracefulShutdownTest {
  private final ExecutorService callers = Executors.newFixedThreadPool(20);

  @AfterEach
  void openTheGate() {
    GreeterImpl.gate.countDown();
    callers.shutdownNow();
  }

  @Test
  void callsInFlightFinishWhenTheContextCloses() throws Exception {
    GreeterImpl.gate = new CountDownLatch(1);
    ConfigurableApplicationContext server = Apps.server("rpcx.server.shutdown-grace-period=20s");
    try (ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      Greeter greeter = client.getBean(Greeter.class);
      List<CompletableFuture<String>> calls = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        String name = "caller " + i;
        calls.add(CompletableFuture.supplyAsync(() -> greeter.held(name), callers));
      }
      await(() -> GreeterImpl.held.get() == 20, "20 calls in flight");
      HealthIndicator health = serverHealth(server);

      CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
      await(() -> health.health().getStatus().equals(Status.OUT_OF_SERVICE), "draining");
      assertFalse(closing.isDone(), "the close waits for the calls in flight");
      GreeterImpl.gate.countDown();
      closing.get(30, TimeUnit.SECONDS);

      for (int i = 0; i < 20; i++) {
        assertEquals("Hello, caller " + i, calls.get(i).get(10, TimeUnit.SECONDS));
      }
      assertEquals(Status.DOWN, health.health().getStatus(), "stopped");
      assertThrows(UnavailableException.class, () -> greeter.greet("late"));
    } finally {
      server.close();
    }
  }

  private static HealthIndicator serverHealth(ConfigurableApplicationContext server) {
    CompositeHealthContributor rpcx =
        server.getBean("rpcxHealthContributor", CompositeHealthContributor.class);
    return (HealthIndicator) rpcx.getContributor("server");
  }

  static void await(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for: " + what);
      }
      Thread.sleep(10);
    }
  }
}
