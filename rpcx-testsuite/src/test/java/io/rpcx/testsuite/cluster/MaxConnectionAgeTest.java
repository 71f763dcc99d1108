package io.rpcx.testsuite.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server's maximum connection age: each connection gets GOAWAY once it is that old, the client
 * moves its next calls to a new connection and no call fails, not even of a method that is not
 * idempotent; a call still running when the grace period ends is cut off with its connection.
 */
@Timeout(60)
class MaxConnectionAgeTest {

  private static RpcxServer server(Duration age, Duration grace) {
    return RpcxServer.builder()
        .bindAddress("127.0.0.1")
        .port(0)
        .service(new ClusterServiceImpl("s1"))
        .maxConnectionAge(age, grace)
        .build()
        .start();
  }

  @Test
  void connectionsAreReplacedUnderLoadWithNoFailedCall() throws Exception {
    RpcxServer server = server(Duration.ofMillis(300), Duration.ofSeconds(5));
    LongAdder calls = new LongAdder();
    List<Throwable> failures = new ArrayList<>();
    try (LogCapture log = LogCapture.of("io.rpcx.server");
        LogCapture clientLog = LogCapture.of("io.rpcx.client");
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      ClusterService service = client.create(ClusterService.class);
      AtomicBoolean calling = new AtomicBoolean(true);
      List<Thread> callers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        Thread caller =
            new Thread(
                () -> {
                  while (calling.get()) {
                    try {
                      service.record(UUID.randomUUID().toString(), 1); // not idempotent
                      calls.increment();
                    } catch (RuntimeException e) {
                      synchronized (failures) {
                        failures.add(e);
                      }
                    }
                  }
                });
        callers.add(caller);
        caller.start();
      }
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2_500);
      while (System.nanoTime() - until < 0) {
        Thread.sleep(50);
      }
      calling.set(false);
      for (Thread caller : callers) {
        caller.join(10_000);
      }
      long goAways =
          log.messages(Level.DEBUG).stream()
              .filter(message -> message.startsWith("Sending GOAWAY to ")
                  && message.endsWith("the connection reached its maximum age (300 ms)"))
              .count();
      assertTrue(goAways >= 4, "connections aged out in 2.5 s: " + goAways);
      assertTrue(calls.sum() > 1_000, "calls: " + calls);
      assertEquals(List.of(), failures);
      // Calls caught on a draining connection were not sent: nothing against the server.
      assertEquals(List.of(), clientLog.warningsContaining("Ejecting"));
    } finally {
      server.stop();
    }
  }

  @Test
  void aCallStillRunningWhenTheGracePeriodEndsIsCutOff() throws Exception {
    RpcxServer server = server(Duration.ofMillis(200), Duration.ofMillis(300));
    try (LogCapture log = LogCapture.of("io.rpcx.server");
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      ClusterService service = client.create(ClusterService.class);
      service.record("warm-up", 0);
      UnavailableException cut =
          assertThrows(UnavailableException.class, () -> service.record("slow", 3_000));
      assertFalse(cut.isSafeToRetry(), "lost in flight: " + cut.getMessage());
      assertTrue(
          log.messages(Level.INFO).stream().anyMatch(message -> message.matches(
              "Closing the connection from /127\\.0\\.0\\.1:\\d+: calls still ran on it 300 ms after it"
                  + " reached its maximum age")),
          () -> String.join("\n", log.messages(Level.INFO)));
      assertEquals("s1", service.record("after", 0), "the next call on a new connection");
    } finally {
      server.stop();
    }
  }

  @Test
  void theAgeAndGraceAreChecked() {
    assertEquals(
        "maxConnectionAge: PT0S (expected: > 0)",
        assertThrows(IllegalArgumentException.class,
            () -> RpcxServer.builder().maxConnectionAge(Duration.ZERO, Duration.ofSeconds(1)))
            .getMessage());
  }
}
