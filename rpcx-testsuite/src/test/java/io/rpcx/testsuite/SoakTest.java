package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 1,000 calls kept in flight on one connection: none lost, mismatched or duplicated, and nothing
 * left pending. Runs for {@code rpcx.soak.seconds} (5 in the default build; the {@code soak} Maven
 * profile sets 120).
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class SoakTest {
  private static final int IN_FLIGHT = 1_000;

  @Test
  void aThousandCallsInFlightOnOneConnection() throws Exception {
    long seconds = Long.getLong("rpcx.soak.seconds", 5);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl()).build().start();
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port()).defaultTimeout(Duration.ofSeconds(60)).build()) {
      EchoService echo = client.create(EchoService.class);
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      AtomicLong ids = new AtomicLong();
      AtomicLong sent = new AtomicLong();
      AtomicLong completed = new AtomicLong();
      AtomicInteger failed = new AtomicInteger();
      AtomicInteger mismatched = new AtomicInteger();
      AtomicInteger duplicated = new AtomicInteger();
      ConcurrentHashMap<Long, Boolean> seen = new ConcurrentHashMap<>();
      CountDownLatch lanesDone = new CountDownLatch(IN_FLIGHT);
      AtomicInteger maxInFlight = new AtomicInteger();

      class Lane {
        void next() {
          if (System.nanoTime() - end > 0) {
            lanesDone.countDown();
            return;
          }
          long id = ids.incrementAndGet();
          String text = "soak-" + id;
          sent.incrementAndGet();
          echo.echoAsync(text)
              .whenComplete(
                  (value, failure) -> {
                    if (failure != null) {
                      failed.incrementAndGet();
                    } else {
                      completed.incrementAndGet();
                      if (!text.equals(value)) {
                        mismatched.incrementAndGet();
                      }
                      if (seen.putIfAbsent(id, Boolean.TRUE) != null) {
                        duplicated.incrementAndGet();
                      }
                    }
                    next();
                  });
        }
      }
      for (int i = 0; i < IN_FLIGHT; i++) {
        new Lane().next();
      }
      while (!lanesDone.await(100, TimeUnit.MILLISECONDS)) {
        maxInFlight.accumulateAndGet(client.callsInFlight(), Math::max);
      }
      assertEquals(0, failed.get(), "failed calls");
      assertEquals(0, mismatched.get(), "mismatched replies");
      assertEquals(0, duplicated.get(), "duplicated replies");
      assertEquals(sent.get(), completed.get(), "lost calls");
      assertEquals(0, client.callsInFlight(), "calls left pending");
      assertTrue(maxInFlight.get() >= IN_FLIGHT * 9 / 10, "in flight at once: " + maxInFlight.get());
      System.out.printf("soak: %d calls in %d s, up to %d in flight%n", completed.get(), seconds, maxInFlight.get());
    } finally {
      server.stop();
    }
  }
}
