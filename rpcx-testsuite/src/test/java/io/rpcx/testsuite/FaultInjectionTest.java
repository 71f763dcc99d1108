package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.examples.api.OrderInfo;
import io.rpcx.examples.api.OrderService;
import io.rpcx.examples.api.Samples;
import io.rpcx.examples.server.OrderServiceImpl;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Through a proxy that slices, cuts and resets the stream: slicing causes no error at all, and a
 * broken stream only ever fails calls as unavailable — never with a decoding error or a wrong
 * value.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FaultInjectionTest {
  /**
   * What this class's tests may log: the ejection of a server its faults make fail, the server
   * its faults make close connections before the handshake reported unreachable, and a server
   * stopped with calls in flight.
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
          "WARN RPCX server 127\\.0\\.0\\.1:\\d+ is unreachable: .*; no calls go to it until it"
              + " answers again \\(reconnecting in the background, next attempt in \\d+ ms\\)",
          "WARN Grace period of \\d+ ms ended with \\d+ calls still running; closing connections");
    } finally {
      logs.close();
    }
  }

  private RpcxServer server;
  private FaultProxy proxy;
  private RpcxClient client;

  @BeforeEach
  void start() throws Exception {
    server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new OrderServiceImpl()).build().start();
    proxy = new FaultProxy(server.port());
    client =
        RpcxClient.builder()
            .target("127.0.0.1", proxy.port())
            .defaultTimeout(Duration.ofSeconds(20))
            .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
            .build();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    proxy.close();
    server.stop(Duration.ZERO);
  }

  private final AtomicInteger callsEnded = new AtomicInteger();

  /** Runs mixed calls from several threads; returns failures by exception class. */
  private ConcurrentHashMap<String, AtomicInteger> run(int threads, int callsPerThread) throws Exception {
    return run(threads, callsPerThread, () -> false);
  }

  /**
   * As {@link #run(int, int)}, each thread stopping early once {@code stop} says so; counts every
   * call that ended, answered or failed, in {@link #callsEnded}.
   */
  private ConcurrentHashMap<String, AtomicInteger> run(
      int threads, int callsPerThread, java.util.function.BooleanSupplier stop) throws Exception {
    OrderService orders = client.create(OrderService.class);
    List<OrderInfo> hundred = Samples.orders(100);
    String large = Samples.text(100 * 1024);
    ConcurrentHashMap<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    AtomicInteger wrong = new AtomicInteger();
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    for (int t = 0; t < threads; t++) {
      int thread = t;
      workers.add(
          CompletableFuture.runAsync(
              () -> {
                for (int i = 0; i < callsPerThread && !stop.getAsBoolean(); i++) {
                  try {
                    switch (i % 3) {
                      case 0:
                        String text = "t" + thread + "-" + i;
                        if (!text.equals(orders.sendStr(text))) {
                          wrong.incrementAndGet();
                        }
                        break;
                      case 1:
                        if (!hundred.equals(orders.loadOrders(hundred))) {
                          wrong.incrementAndGet();
                        }
                        break;
                      default:
                        if (!large.equals(orders.sendStr(large))) {
                          wrong.incrementAndGet();
                        }
                    }
                  } catch (RpcxException e) {
                    failures.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicInteger())
                        .incrementAndGet();
                  }
                  callsEnded.incrementAndGet();
                }
              },
              pool));
    }
    try {
      for (CompletableFuture<Void> worker : workers) {
        worker.get(100, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(0, wrong.get(), "wrong values delivered");
    return failures;
  }

  private void awaitAvailable() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (client.endpoints(OrderService.class).get(0).state() == EndpointStatus.State.UNREACHABLE) {
      assertTrue(System.nanoTime() < deadline, "still " + client.endpoints(OrderService.class));
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  @Test
  void slicingTheStreamIntoTinyPiecesCausesNoError() throws Exception {
    proxy.slice(true);
    ConcurrentHashMap<String, AtomicInteger> failures = run(4, 30);
    assertTrue(failures.isEmpty(), "failures: " + failures);
  }

  @Test
  void cuttingTheStreamFailsCallsOnlyAsUnavailable() throws Exception {
    Random random = new Random(2024);
    int unavailable = 0;
    for (int round = 0; round < 8; round++) {
      proxy.cutAfter(100 + random.nextInt(300_000));
      ConcurrentHashMap<String, AtomicInteger> failures = run(3, 12);
      failures.keySet().forEach(
          type -> assertEquals(UnavailableException.class.getSimpleName(), type, "failures: " + failures));
      unavailable += failures.getOrDefault("UnavailableException", new AtomicInteger()).get();
      proxy.cutAfter(Long.MAX_VALUE / 2);
    }
    assertTrue(unavailable > 0, "the cuts failed some calls");
    // A cut during a handshake makes the client wait its reconnect backoff (10-50 ms here); its
    // only server may be ejected, but calls still go to it when there is no other.
    awaitAvailable();
    ConcurrentHashMap<String, AtomicInteger> afterwards = run(2, 6);
    assertTrue(afterwards.isEmpty(), "the client recovers: " + afterwards);
  }

  @Test
  void resettingConnectionsFailsCallsOnlyAsUnavailable() throws Exception {
    AtomicBoolean resetsDone = new AtomicBoolean();
    CompletableFuture<ConcurrentHashMap<String, AtomicInteger>> running =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return run(3, 100_000, resetsDone::get);
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            }, ThreadPerTask.EXECUTOR);
    try {
      for (int i = 0; i < 5; i++) {
        // Calls under way between resets, however fast the machine is.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int before = callsEnded.get();
        while (callsEnded.get() < before + 10) {
          if (running.isDone()) {
            running.join(); // throws what ended the calls, if anything did
            throw new AssertionError("the calls ended before the resets");
          }
          assertTrue(System.nanoTime() < deadline, "calls stopped ending");
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        proxy.resetAll();
      }
    } finally {
      resetsDone.set(true);
    }
    ConcurrentHashMap<String, AtomicInteger> failures = running.get(100, TimeUnit.SECONDS);
    failures.keySet().forEach(
        type -> assertEquals(UnavailableException.class.getSimpleName(), type, "failures: " + failures));
    assertTrue(!failures.isEmpty(), "the resets failed some calls");
  }
}
