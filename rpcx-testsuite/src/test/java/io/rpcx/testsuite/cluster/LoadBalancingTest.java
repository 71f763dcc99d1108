package io.rpcx.testsuite.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.LoadBalancing;
import io.rpcx.client.RpcxClient;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One client, three servers of a service listed statically: round robin gives equal shares, least
 * in-flight calls sends less to a slow server, consistent hashing keeps each key on one server.
 */
@Timeout(60)
class LoadBalancingTest {
  /**
   * What this class's tests may log: servers stopped at once (no grace period) with a call still
   * in flight, and their ejection.
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
          "WARN Grace period of \\d+ ms ended with \\d+ calls still running; closing connections",
          "WARN Ejecting 127\\.0\\.0\\.1:\\d+ for at least \\d+ ms after \\d+ failed calls in a"
              + " row; probing it in the background");
    } finally {
      logs.close();
    }
  }

  private final List<RpcxServer> servers = new ArrayList<>();
  private final List<ClusterServiceImpl> implementations = new ArrayList<>();
  private final List<String> addresses = new ArrayList<>();

  @BeforeEach
  void startServers() {
    for (String name : List.of("a", "b", "c")) {
      ClusterServiceImpl implementation = new ClusterServiceImpl(name);
      RpcxServer server =
          RpcxServer.builder().bindAddress("127.0.0.1").service(implementation).build().start();
      servers.add(server);
      implementations.add(implementation);
      addresses.add("127.0.0.1:" + server.port());
    }
  }

  @AfterEach
  void stopServers() {
    servers.forEach(server -> server.stop(Duration.ZERO));
  }

  private RpcxClient client(LoadBalancing strategy) {
    return RpcxClient.builder()
        .targets(ClusterService.class, addresses.toArray(new String[0]))
        .loadBalancing(ClusterService.class, strategy)
        .build();
  }

  /** Calls {@code whoAmI(millis)} from {@code threads} threads; counts answers per server. */
  private static Map<String, Integer> spread(
      ClusterService service, int threads, int callsPerThread, int millis) throws Exception {
    ConcurrentHashMap<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        workers.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < callsPerThread; i++) {
                    counts.computeIfAbsent(service.whoAmI(millis), k -> new AtomicInteger())
                        .incrementAndGet();
                  }
                  return null;
                }));
      }
      for (Future<?> worker : workers) {
        worker.get(50, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    Map<String, Integer> result = new HashMap<>();
    counts.forEach((name, count) -> result.put(name, count.get()));
    return result;
  }

  @Test
  void roundRobinGivesEveryServerTheSameShareWithinTenPercent() throws Exception {
    try (RpcxClient client = client(LoadBalancing.ROUND_ROBIN)) {
      Map<String, Integer> counts = spread(client.create(ClusterService.class), 200, 30, 0);
      assertEquals(Set.of("a", "b", "c"), counts.keySet());
      double mean = 200 * 30 / 3.0;
      for (Map.Entry<String, Integer> entry : counts.entrySet()) {
        assertTrue(
            Math.abs(entry.getValue() - mean) <= 0.1 * mean,
            "server " + entry.getKey() + " got " + entry.getValue() + " of 6000: " + counts);
      }
    }
  }

  @Test
  void leastInFlightSendsFewerCallsToASlowServer() throws Exception {
    implementations.get(2).slowDown(30);
    try (RpcxClient client = client(LoadBalancing.LEAST_IN_FLIGHT)) {
      Map<String, Integer> counts = spread(client.create(ClusterService.class), 30, 40, 2);
      int slow = counts.getOrDefault("c", 0);
      int fast = Math.min(counts.get("a"), counts.get("b"));
      assertTrue(slow * 3 < fast, "the slow server got " + slow + ": " + counts);
    }
  }

  @Test
  void consistentHashingSendsEachKeyToOneServerAndSpreadsTheKeys() {
    try (RpcxClient client = client(LoadBalancing.CONSISTENT_HASHING)) {
      ClusterService service = client.create(ClusterService.class);
      Map<String, String> owners = new HashMap<>();
      for (int i = 0; i < 300; i++) {
        owners.put("customer-" + i, service.owner("customer-" + i));
      }
      for (int round = 0; round < 3; round++) {
        for (Map.Entry<String, String> entry : owners.entrySet()) {
          assertEquals(entry.getValue(), service.owner(entry.getKey()), entry.getKey());
        }
      }
      assertEquals(Set.of("a", "b", "c"), new HashSet<>(owners.values()));
    }
  }

  @Test
  void theDefaultIsLeastInFlightAndOneClientConnectsOncePerServer() throws Exception {
    try (RpcxClient client =
        RpcxClient.builder().targets(ClusterService.class, addresses.toArray(new String[0])).build()) {
      Map<String, Integer> counts = spread(client.create(ClusterService.class), 20, 30, 1);
      assertEquals(Set.of("a", "b", "c"), counts.keySet());
      for (RpcxServer server : servers) {
        assertEquals(1, server.connectionCount());
      }
    }
  }
}
