package io.rpcx.client.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rpcx.client.DnsDiscovery;
import io.rpcx.client.RpcxClient;
import io.rpcx.client.internal.call.TestCalls;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.internal.testing.Dnsmasq;
import io.rpcx.internal.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * DnsDiscovery against a real DNS server (dnsmasq on 127.0.0.1) whose records the tests change:
 * every A record is a server; the list follows the records on their TTL, on a timer, and at once
 * when a connection fails; SRV records give hosts and ports; a failed lookup or an answer with no
 * record keeps the last good list and says why.
 */
@Timeout(60)
class DnsDiscoveryTest {
  private Dnsmasq dns;
  private DnsDiscovery discovery;
  private ServiceDiscovery.Subscription subscription;
  private final List<List<ServiceEndpoint>> lists = new CopyOnWriteArrayList<>();
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private final ServiceDiscovery.Listener listener =
      new ServiceDiscovery.Listener() {
        @Override
        public void onEndpoints(List<ServiceEndpoint> endpoints) {
          lists.add(endpoints);
        }

        @Override
        public void onProblem(String problem) {
          problems.add(problem);
        }
      };

  @BeforeAll
  static void needsDnsmasq() {
    assumeTrue(Dnsmasq.isInstalled(), Dnsmasq.MISSING);
  }

  @AfterEach
  void stop() throws Exception {
    if (subscription != null) {
      subscription.close();
    }
    if (discovery != null) {
      discovery.close();
    }
    if (dns != null) {
      dns.close();
    }
  }

  private List<String> addresses() {
    return lists.isEmpty()
        ? List.of()
        : lists.get(lists.size() - 1).stream().map(ServiceEndpoint::address).collect(Collectors.toList());
  }

  private static void await(BooleanSupplier condition, Supplier<String> what, long seconds) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("waited " + seconds + " s for " + what.get());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  private void awaitAddresses(List<String> expected, long seconds) {
    await(() -> addresses().equals(expected), () -> expected + ", last " + addresses(), seconds);
  }

  private DnsDiscovery.Builder builder() {
    return DnsDiscovery.builder().nameServer("127.0.0.1", dns.address().getPort());
  }

  @Test
  void everyARecordIsAServerAndTheListFollowsTheRecordsOnTheirTtl() throws Exception {
    dns = new Dnsmasq(1);
    dns.hosts("127.0.0.2 orders.test", "127.0.0.3 orders.test");
    // The timer alone would wait a minute: the 1 s TTL decides.
    discovery = builder().everyService("dns:///orders.test:9000")
        .refreshInterval(Duration.ofMinutes(1)).build();
    subscription = discovery.subscribe("orders", listener);
    assertEquals(List.of("127.0.0.2:9000", "127.0.0.3:9000"), addresses(), "before subscribe returns");

    dns.hosts("127.0.0.2 orders.test", "127.0.0.3 orders.test", "127.0.0.4 orders.test",
        "127.0.0.5 orders.test");
    awaitAddresses(List.of("127.0.0.2:9000", "127.0.0.3:9000", "127.0.0.4:9000", "127.0.0.5:9000"), 5);
    dns.hosts("127.0.0.4 orders.test", "127.0.0.5 orders.test");
    awaitAddresses(List.of("127.0.0.4:9000", "127.0.0.5:9000"), 5);
    assertEquals(List.of(), problems);
    assertEquals("DNS A/AAAA records of orders.test:9000", discovery.describe("orders"));
  }

  @Test
  void aFailedConnectionLooksAgainAtOnceLongBeforeTheTtlOrTheTimer() throws Exception {
    dns = new Dnsmasq(3600);
    dns.hosts("127.0.0.2 orders.test");
    discovery = builder().everyService("dns:///orders.test:9000").build();
    subscription = discovery.subscribe("orders", listener);
    assertEquals(List.of("127.0.0.2:9000"), addresses());

    dns.hosts("127.0.0.3 orders.test"); // the pod was replaced
    long asked = System.nanoTime();
    subscription.refresh(); // what a client does when its connection to 127.0.0.2 breaks
    awaitAddresses(List.of("127.0.0.3:9000"), 5);
    assertTrue(System.nanoTime() - asked < TimeUnit.SECONDS.toNanos(2), "well before the TTL");
  }

  @Test
  void refreshesAreNeverCloserThanTheMinimumInterval() throws Exception {
    dns = new Dnsmasq(3600);
    dns.hosts("127.0.0.2 orders.test");
    discovery =
        builder().everyService("dns:///orders.test:9000").minRefreshInterval(Duration.ofSeconds(2)).build();
    subscription = discovery.subscribe("orders", listener);
    dns.hosts("127.0.0.3 orders.test");
    long asked = System.nanoTime();
    for (int i = 0; i < 100; i++) {
      subscription.refresh(); // a storm of failed connections: one lookup
    }
    awaitAddresses(List.of("127.0.0.3:9000"), 5);
    long waited = System.nanoTime() - asked;
    assertTrue(waited > TimeUnit.MILLISECONDS.toNanos(1_500), "not before the 2 s since the last: " + waited);
  }

  @Test
  void aFailedLookupKeepsTheLastGoodListAndSaysWhy() throws Exception {
    dns = new Dnsmasq(1);
    dns.hosts("127.0.0.2 orders.test", "127.0.0.3 orders.test");
    try (LogCapture log = LogCapture.of("io.rpcx.client")) {
      discovery = builder().everyService("dns:///orders.test:9000")
          .queryTimeout(Duration.ofMillis(300)).build();
      subscription = discovery.subscribe("orders", listener);
      dns.stop();
      await(() -> !problems.isEmpty(), () -> "a problem", 10);
      String problem = problems.get(0);
      assertTrue(
          problem.startsWith("DNS lookup of orders.test (A) at " + dns.hostAndPort() + " failed: "),
          problem);
      assertEquals(List.of(problem + "; keeping the 2 servers known"), log.warningsContaining("DNS lookup"));
      assertEquals(1, lists.size(), "no other list");

      dns.start();
      dns.hosts("127.0.0.3 orders.test");
      awaitAddresses(List.of("127.0.0.3:9000"), 10);
      await(
          () -> log.messages(ch.qos.logback.classic.Level.INFO).contains(
              "DNS answers the lookup of A/AAAA records of orders.test:9000 again"),
          () -> "the recovery logged", 5);
    }
  }

  @Test
  void anAnswerWithNoRecordKeepsTheLastGoodListAndSaysWhy() throws Exception {
    dns = new Dnsmasq(1);
    dns.hosts("127.0.0.2 orders.test");
    try (LogCapture log = LogCapture.of("io.rpcx.client")) {
      discovery = builder().everyService("dns:///orders.test:9000").build();
      subscription = discovery.subscribe("orders", listener);
      dns.hosts("127.0.0.9 other.test");
      String expected =
          "DNS has no A or AAAA record for orders.test (asked " + dns.hostAndPort() + ")";
      await(() -> problems.contains(expected), () -> "'" + expected + "' in " + problems, 10);
      assertEquals(List.of(expected + "; keeping the 1 servers known"), log.warningsContaining("no A or AAAA"));
      assertEquals(List.of("127.0.0.2:9000"), addresses());
    }
  }

  @Test
  void aNameWithNoRecordFromTheStartFailsWithTheReason() throws Exception {
    dns = new Dnsmasq(1);
    try (LogCapture log = LogCapture.of("io.rpcx.client")) {
      discovery = builder().everyService("dns:///orders.test:9000").build();
      subscription = discovery.subscribe("orders", listener);
      assertEquals(List.of(), lists);
      assertEquals(
          List.of("DNS has no A or AAAA record for orders.test (asked " + dns.hostAndPort() + ")"),
          problems);
      assertEquals(1, log.warningsContaining("no A or AAAA").size());
    }
  }

  @Test
  void aClientWhoseNameHasNoRecordFailsItsCallsAtOnceNamingTheSourceAndWhy() throws Exception {
    dns = new Dnsmasq(1);
    try (LogCapture log = LogCapture.of("io.rpcx.client");
        DnsDiscovery empty = builder().everyService("dns:///orders.test:9000").build();
        RpcxClient client = RpcxClient.builder().discovery(empty).build()) {
      TestCalls.Carts carts = client.create(TestCalls.Carts.class);
      long start = System.nanoTime();
      UnavailableException failure = assertThrows(UnavailableException.class, () -> carts.peek("x"));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertEquals(
          "carts/peek was not sent: DNS A/AAAA records of orders.test:9000 lists no server for"
              + " service 'carts': DNS has no A or AAAA record for orders.test (asked "
              + dns.hostAndPort() + ")",
          failure.getMessage());
      assertTrue(millis < 1_000, "failed at once, not after the timeout: " + millis + " ms");
      assertEquals(1, log.warningsContaining("no A or AAAA record").size());
    }
  }

  @Test
  void srvRecordsGiveHostsAndPorts() throws Exception {
    dns = new Dnsmasq(1);
    dns.hosts("127.0.0.1 s1.orders.test", "127.0.0.2 s2.orders.test");
    dns.srv("_rpcx._tcp.orders.test,s1.orders.test,9001", "_rpcx._tcp.orders.test,s2.orders.test,9002");
    // The name server named in the target itself.
    discovery =
        DnsDiscovery.builder()
            .everyService("dns://" + dns.hostAndPort() + "/_rpcx._tcp.orders.test")
            .build();
    subscription = discovery.subscribe("orders", listener);
    assertEquals(List.of("127.0.0.1:9001", "127.0.0.2:9002"), addresses());
    assertEquals(
        "DNS SRV records of _rpcx._tcp.orders.test at " + dns.hostAndPort(),
        discovery.describe("orders"));

    dns.srv("_rpcx._tcp.orders.test,s2.orders.test,9002");
    awaitAddresses(List.of("127.0.0.2:9002"), 10);
  }

  @Test
  void targetsAreCheckedWhenGiven() {
    assertEquals(
        "target: 'orders.test:9000' (expected: dns:///name:port for A/AAAA records, dns:///name"
            + " for SRV records, or either with a name server, dns://host:port/name:port)",
        assertThrows(IllegalArgumentException.class, () -> DnsDiscovery.of("orders.test:9000"))
            .getMessage());
    assertEquals(
        "target: 'dns:///orders.test:http' has port 'http' (expected: 1-65535)",
        assertThrows(IllegalArgumentException.class, () -> DnsDiscovery.of("dns:///orders.test:http"))
            .getMessage());
    assertEquals(
        "no DNS target: call everyService(...) or service(...)",
        assertThrows(IllegalArgumentException.class, () -> DnsDiscovery.builder().build())
            .getMessage());
  }
}
