package io.rpcx.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.ServiceRegistrar;
import io.rpcx.internal.testing.LogCapture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Against a real ZooKeeper started by the test: servers register and withdraw, clients see every
 * change live, unreadable nodes are skipped, and neither a ZooKeeper restart nor an expired session
 * loses a registration.
 */
@Timeout(60)
class ZooKeeperRegistryTest {
  /** What a subscription logs while ZooKeeper is away: it keeps the servers it knew. */
  private static final String KEEPING =
      "WARN Lost touch with ZooKeeper \\([A-Z]+\\): keeping the known servers of service 'orders'";

  private TestingServer zooKeeper;
  private final List<ZooKeeperRegistry> registries = new ArrayList<>();
  private LogCapture logs;

  @BeforeEach
  void startZooKeeper() throws Exception {
    logs = LogCapture.warnings("io.rpcx");
    zooKeeper = new TestingServer(true);
  }

  @AfterEach
  void stop() throws Exception {
    try {
      registries.forEach(ZooKeeperRegistry::close);
      zooKeeper.close();
      logs.assertOnly(Level.WARN, KEEPING);
    } finally {
      logs.close();
    }
  }

  private ZooKeeperRegistry registry() {
    ZooKeeperRegistry registry =
        ZooKeeperRegistry.builder()
            .connectString(zooKeeper.getConnectString())
            .sessionTimeout(Duration.ofSeconds(10))
            .build();
    registries.add(registry);
    return registry;
  }

  /** Keeps every list a subscription delivered. */
  private static final class Lists implements ServiceDiscovery.Listener {
    final List<List<ServiceEndpoint>> received = new CopyOnWriteArrayList<>();

    @Override
    public void onEndpoints(List<ServiceEndpoint> endpoints) {
      received.add(endpoints);
    }

    List<ServiceEndpoint> latest() {
      return received.isEmpty() ? null : received.get(received.size() - 1);
    }

    List<ServiceEndpoint> await(Predicate<List<ServiceEndpoint>> condition) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < deadline) {
        List<ServiceEndpoint> latest = latest();
        if (latest != null && condition.test(latest)) {
          return latest;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
      }
      throw new AssertionError("condition not met; lists received: " + received);
    }
  }

  private static ServiceEndpoint endpoint(int port) {
    return ServiceEndpoint.of("127.0.0.1", port, Map.of("instance", "i" + port, "zone", "z1"));
  }

  @Test
  void aClientSeesServersRegisterAndWithdrawLive() {
    ServiceRegistrar servers = registry();
    Lists lists = new Lists();
    ServiceDiscovery.Subscription subscription = registry().subscribe("orders", lists);
    assertEquals(List.of(), lists.latest(), "the first list arrives before subscribe returns");

    ServiceRegistrar.Registration first = servers.register("orders", endpoint(9001));
    ServiceRegistrar.Registration second = servers.register("orders", endpoint(9002));
    servers.register("other", endpoint(9003));
    assertEquals(
        List.of(endpoint(9001), endpoint(9002)), lists.await(list -> list.size() == 2));

    first.close();
    assertEquals(List.of(endpoint(9002)), lists.await(list -> list.size() == 1));
    second.close();
    lists.await(List::isEmpty);
    subscription.close();
  }

  @Test
  void subscribingReturnsWithTheServersAlreadyRegistered() throws Exception {
    ServiceRegistrar servers = registry();
    servers.register("orders", endpoint(9001));
    CuratorFramework check = curator();
    awaitNodes(check, "/rpcx/services/orders", 1);
    Lists lists = new Lists();
    registry().subscribe("orders", lists);
    assertEquals(List.of(List.of(endpoint(9001))), lists.received);
    check.close();
  }

  @Test
  void nodesThatAreNotValidRegistrationsAreSkipped() throws Exception {
    ServiceRegistrar servers = registry();
    servers.register("orders", endpoint(9001));
    CuratorFramework hostile = curator();
    String base = "/rpcx/services/orders/";
    hostile.create().creatingParentsIfNeeded().forPath(base + "garbage", new byte[] {1, 2, 3});
    hostile.create().forPath(base + "empty", new byte[0]);
    hostile.create().forPath(base + "huge", new byte[20_000]);
    hostile.create().forPath(base + "json", "{\"host\":\"evil\"}".getBytes(StandardCharsets.UTF_8));
    hostile.create().forPath(
        base + "bad-port", "rpcx-endpoint 1\nhost=h\nport=0\n".getBytes(StandardCharsets.UTF_8));
    hostile.create().forPath(base + "nested", EndpointRecord.encode(endpoint(9100)));
    hostile.create().forPath(base + "nested/child", EndpointRecord.encode(endpoint(9101)));
    Lists lists = new Lists();
    registry().subscribe("orders", lists);
    List<ServiceEndpoint> seen =
        lists.await(list -> list.contains(endpoint(9001)) && list.contains(endpoint(9100)));
    assertEquals(2, seen.size(), "only the valid records at the service level: " + seen);
    hostile.close();
    String skipping = "WARN Skipping registration node /rpcx/services/orders/";
    List<String> skipped = new ArrayList<>(logs.await(Level.WARN, 5));
    skipped.sort(null);
    assertEquals(
        List.of(
            skipping + "bad-port: port: 0 (expected: 1-65535)",
            skipping + "empty: no data",
            skipping + "garbage: first line is not 'rpcx-endpoint 1' (an RPCX registration of"
                + " another version, or not one)",
            skipping + "huge: 20000 bytes (expected: at most 16384)",
            skipping + "json: first line is not 'rpcx-endpoint 1' (an RPCX registration of another"
                + " version, or not one)"),
        skipped);
    logs.close(); // checked: nothing else may have been logged
    logs = LogCapture.warnings("io.rpcx");
  }

  @Test
  void aZooKeeperRestartKeepsTheListAndTheRegistrations() throws Exception {
    ServiceRegistrar servers = registry();
    servers.register("orders", endpoint(9001));
    Lists lists = new Lists();
    registry().subscribe("orders", lists);
    lists.await(list -> list.size() == 1);
    int before = lists.received.size();

    zooKeeper.restart();
    servers.register("orders", endpoint(9002));
    lists.await(list -> list.size() == 2);
    for (List<ServiceEndpoint> list : lists.received.subList(before, lists.received.size())) {
      assertTrue(list.contains(endpoint(9001)), "server 9001 was never dropped: " + lists.received);
    }
  }

  @Test
  void aRegistrationComesBackAfterItsSessionExpired() throws Exception {
    CuratorFramework serverClient =
        CuratorFrameworkFactory.builder()
            .connectString(zooKeeper.getConnectString())
            .sessionTimeoutMs(6_000)
            .retryPolicy(new RetryOneTime(100))
            .build();
    serverClient.start();
    ZooKeeperRegistry servers = ZooKeeperRegistry.builder().client(serverClient).build();
    registries.add(servers);
    servers.register("orders", endpoint(9001));
    Lists lists = new Lists();
    registry().subscribe("orders", lists);
    lists.await(list -> list.size() == 1);
    CuratorFramework check = curator();
    String node = "/rpcx/services/orders/127.0.0.1%3A9001_i9001";
    long firstSession = check.checkExists().forPath(node).getEphemeralOwner();

    serverClient.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
    // ZooKeeper drops the node when the old session times out; the registration creates it again
    // in the new one.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      org.apache.zookeeper.data.Stat stat = check.checkExists().forPath(node);
      if (stat != null && stat.getEphemeralOwner() != firstSession) {
        break;
      }
      assertTrue(System.nanoTime() < deadline, "the node was not created again");
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    assertEquals(List.of(endpoint(9001)), lists.await(list -> list.size() == 1));
    servers.close();
    lists.await(List::isEmpty);
    check.close();
    serverClient.close();
  }

  @Test
  void closingTheRegistryWithdrawsItsRegistrations() {
    ZooKeeperRegistry servers = registry();
    servers.register("orders", endpoint(9001));
    Lists lists = new Lists();
    registry().subscribe("orders", lists);
    lists.await(list -> list.size() == 1);
    servers.close();
    lists.await(List::isEmpty);
    assertFalse(lists.received.isEmpty());
  }

  @Test
  void serviceNamesAndAddressesAreEncodedIntoNodeNames() throws Exception {
    ServiceRegistrar servers = registry();
    servers.register("a/b..", ServiceEndpoint.of("::1", 9001, Map.of("instance", "x/y")));
    CuratorFramework check = curator();
    awaitNodes(check, "/rpcx/services/a%2Fb..", 1);
    assertEquals(
        List.of("%5B%3A%3A1%5D%3A9001_x%2Fy"),
        check.getChildren().forPath("/rpcx/services/a%2Fb.."));
    check.close();
  }

  private CuratorFramework curator() {
    CuratorFramework client =
        CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
    client.start();
    return client;
  }

  private static void awaitNodes(CuratorFramework client, String path, int count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (client.checkExists().forPath(path) == null
        || client.getChildren().forPath(path).size() < count) {
      assertTrue(System.nanoTime() < deadline, "no " + count + " nodes under " + path);
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

}
