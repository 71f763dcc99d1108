package io.rpcx.testsuite.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.LoadBalancing;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The whole story against a real ZooKeeper (started by the test) and three servers in processes of
 * their own, with 200 callers of an idempotent method balanced round robin:
 *
 * <ol>
 *   <li>round robin gives the three servers equal shares, within 10%;
 *   <li>one server is killed (SIGKILL: its ZooKeeper session lives on, so ZooKeeper still lists
 *       it): calls in flight on it end promptly, no call fails, and new calls stop going to it
 *       within 200 ms;
 *   <li>it is started again on its port: it gets calls again within 5 s;
 *   <li>ZooKeeper restarts: calls to the known servers go on without an error.
 * </ol>
 */
@Timeout(180)
class ZooKeeperClusterTest {
  /**
   * What this class's tests may log: the ejection of the server it crashes, that server reported
   * unreachable, and the list kept while ZooKeeper restarts.
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
          "WARN Lost touch with ZooKeeper \\([A-Z]+\\): keeping the known servers of service"
              + " 'cluster'");
    } finally {
      logs.close();
    }
  }

  private static final int CALLERS = 200;

  private TestingServer zooKeeper;
  private ZooKeeperRegistry discovery;
  private RpcxClient client;
  private final Map<String, ClusterNode.Handle> nodes = new ConcurrentHashMap<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> callers = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    stop.set(true);
    for (Thread caller : callers) {
      caller.join(10_000);
    }
    if (client != null) {
      client.close();
    }
    if (discovery != null) {
      discovery.close();
    }
    for (ClusterNode.Handle node : nodes.values()) {
      node.close();
    }
    if (zooKeeper != null) {
      zooKeeper.close();
    }
  }

  private static void await(String what, long timeoutMillis, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  private static void pause(long millis) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    for (long left = millis; left > 0; left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(left));
    }
  }

  private EndpointStatus status(int port) {
    for (EndpointStatus status : client.endpoints(ClusterService.class)) {
      if (status.address().equals("127.0.0.1:" + port)) {
        return status;
      }
    }
    throw new AssertionError("127.0.0.1:" + port + " is not listed: " + client.endpoints(ClusterService.class));
  }

  @Test
  void callsGoOnThroughACrashARestartAndAZooKeeperRestart() throws Exception {
    zooKeeper = new TestingServer(true);
    List<CompletableFuture<Void>> starting = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      starting.add(
          CompletableFuture.runAsync(
              () -> {
                try {
                  nodes.put(name, ClusterNode.Handle.start(zooKeeper.getConnectString(), name, 0));
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              }));
    }
    CompletableFuture.allOf(starting.toArray(new CompletableFuture<?>[0]))
        .get(60, TimeUnit.SECONDS);

    discovery = ZooKeeperRegistry.builder().connectString(zooKeeper.getConnectString()).build();
    client =
        RpcxClient.builder()
            .discovery(discovery)
            .loadBalancing(LoadBalancing.ROUND_ROBIN)
            .defaultTimeout(Duration.ofSeconds(5))
            .build();
    ClusterService service = client.create(ClusterService.class);
    await("the client knows three servers", 10_000,
        () -> client.endpoints(ClusterService.class).size() == 3);

    Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
    List<String> failures = new CopyOnWriteArrayList<>();
    AtomicLong slowest = new AtomicLong();
    for (int i = 0; i < CALLERS; i++) {
      Thread caller =
          new Thread(
              () -> {
                while (!stop.get()) {
                  long start = System.nanoTime();
                  try {
                    answers.computeIfAbsent(service.whoAmI(5), k -> new AtomicInteger())
                        .incrementAndGet();
                  } catch (RpcxException e) {
                    failures.add(e.toString());
                  }
                  slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                }
              },
              "caller-" + i);
      callers.add(caller);
      caller.start();
    }
    await("every server answered", 20_000, () -> answers.size() == 3);
    pause(1_000);

    // 1. Round robin: equal shares over two seconds.
    Map<String, Integer> before = snapshot(answers);
    pause(2_000);
    Map<String, Integer> shares = difference(snapshot(answers), before);
    double mean = shares.values().stream().mapToInt(Integer::intValue).sum() / 3.0;
    for (Map.Entry<String, Integer> share : shares.entrySet()) {
      assertTrue(Math.abs(share.getValue() - mean) <= 0.1 * mean,
          "round robin shares not within 10%: " + shares);
    }

    // 2. Kill b. ZooKeeper keeps listing it until its session expires (20 s).
    ClusterNode.Handle b = nodes.get("b");
    slowest.set(0);
    b.kill();
    long killedAt = System.nanoTime();
    pause(200);
    long attemptsAt200ms = status(b.port).callsStarted();
    pause(1_300);
    long attemptsAt1500ms = status(b.port).callsStarted();
    assertEquals(3, client.endpoints(ClusterService.class).size(), "ZooKeeper still lists b");
    assertEquals(0, attemptsAt1500ms - attemptsAt200ms,
        "callers' calls still sent to b after 200 ms (it is probed in the background instead)");
    assertTrue(TimeUnit.NANOSECONDS.toMillis(slowest.get()) < 2_000,
        "a call took " + TimeUnit.NANOSECONDS.toMillis(slowest.get()) + " ms around the crash");
    assertEquals(List.of(), failures, "no call failed");

    // 3. b comes back on its port: traffic again within 5 s.
    int bAnswers = answers.get("b").get();
    nodes.put("b", ClusterNode.Handle.start(zooKeeper.getConnectString(), "b", b.port));
    long restartedAt = System.nanoTime();
    await("the restarted b answers", 5_000, () -> answers.get("b").get() > bAnswers + 100);
    long back = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedAt);

    // 4. ZooKeeper restarts under load: nothing fails, every server keeps answering.
    zooKeeper.restart();
    Map<String, Integer> beforeRestart = snapshot(answers);
    pause(2_000);
    Map<String, Integer> duringRestart = difference(snapshot(answers), beforeRestart);
    assertEquals(3, duringRestart.size(), "every server answered: " + duringRestart);
    duringRestart.values().forEach(count -> assertTrue(count > 100, "" + duringRestart));
    assertEquals(List.of(), failures, "no call failed");
    assertEquals(3, client.endpoints(ClusterService.class).size());
    System.out.printf(
        "cluster: shares %s; b avoided 200 ms after its crash (%d attempts to 1.5 s); "
            + "back %d ms after restart; %s while ZooKeeper restarted%n",
        shares, attemptsAt1500ms - attemptsAt200ms, back, duringRestart);
  }

  private static Map<String, Integer> snapshot(Map<String, AtomicInteger> answers) {
    Map<String, Integer> copy = new HashMap<>();
    answers.forEach((name, count) -> copy.put(name, count.get()));
    return copy;
  }

  private static Map<String, Integer> difference(Map<String, Integer> after, Map<String, Integer> before) {
    Map<String, Integer> delta = new HashMap<>();
    after.forEach((name, count) -> {
      int change = count - before.getOrDefault(name, 0);
      if (change > 0) {
        delta.put(name, change);
      }
    });
    return delta;
  }
}
