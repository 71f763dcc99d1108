package io.rpcx.testsuite.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rpcx.client.DnsDiscovery;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.internal.testing.Dnsmasq;
import io.rpcx.server.RpcxServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Servers on 127.0.0.2, .3, ... (one port, as pods behind a headless Service), listed by a real
 * DNS server (dnsmasq) whose records the test changes, and a client with DnsDiscovery under
 * callers of a method that is not idempotent: scaled up and down, a server replaced, 0 failed
 * calls, and the replacement found as soon as the old server's connection closes, long before
 * the TTL or the timer.
 */
@Timeout(120)
class DnsClusterTest {
  private static final int CALLERS = 8;

  private final Map<String, RpcxServer> servers = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> callsBy = new ConcurrentHashMap<>();
  private final LongAdder failures = new LongAdder();
  private final List<Throwable> failed = new ArrayList<>();
  private final AtomicBoolean calling = new AtomicBoolean(true);
  private final List<Thread> callers = new ArrayList<>();
  private Dnsmasq dns;
  private int port;

  @BeforeAll
  static void needsDnsmasqAndLoopbackAddresses() {
    assumeTrue(Dnsmasq.isInstalled(), Dnsmasq.MISSING);
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress("127.0.0.5", 0));
    } catch (IOException e) {
      assumeTrue(false, "needs the loopback addresses 127.0.0.2-5 (Linux has them): " + e);
    }
  }

  @AfterEach
  void stop() throws Exception {
    calling.set(false);
    for (Thread caller : callers) {
      caller.join(10_000);
    }
    servers.values().forEach(RpcxServer::stop);
    if (dns != null) {
      dns.close();
    }
  }

  /** Starts server {@code name} on 127.0.0.{@code n}, on the port every server shares. */
  private String start(int n) {
    String host = "127.0.0." + n;
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress(host)
            .port(port)
            .service(new ClusterServiceImpl(host))
            .shutdownGracePeriod(Duration.ofSeconds(2))
            .build()
            .start();
    port = server.port();
    servers.put(host, server);
    return host;
  }

  private void records(String... hosts) throws IOException {
    String[] lines = new String[hosts.length];
    for (int i = 0; i < hosts.length; i++) {
      lines[i] = hosts[i] + " orders.test";
    }
    dns.hosts(lines);
  }

  private RpcxClient client(DnsDiscovery discovery) {
    RpcxClient client = RpcxClient.builder().discovery(discovery).build();
    ClusterService service = client.create(ClusterService.class);
    for (int i = 0; i < CALLERS; i++) {
      Thread caller = new Thread(() -> call(service), "caller-" + i);
      callers.add(caller);
      caller.start();
    }
    return client;
  }

  private void call(ClusterService service) {
    while (calling.get()) {
      try {
        String server = service.record(UUID.randomUUID().toString(), 1);
        callsBy.computeIfAbsent(server, key -> new LongAdder()).increment();
      } catch (RuntimeException e) {
        synchronized (failed) {
          failures.increment();
          if (failed.size() < 10) {
            failed.add(e);
          }
        }
      }
    }
  }

  private long calls(String server) {
    return callsBy.computeIfAbsent(server, key -> new LongAdder()).sum();
  }

  private void awaitCalls(String server, long more, long seconds) {
    long target = calls(server) + more;
    await(() -> calls(server) >= target, () -> more + " calls to " + server + ": " + callsBy, seconds);
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

  private void stopCalling() throws InterruptedException {
    calling.set(false);
    for (Thread caller : callers) {
      caller.join(10_000);
    }
    assertEquals(0, failures.sum(), () -> "failed calls: " + failed);
  }

  @Test
  void callsFollowTheRecordsThroughScalingWithNoFailedCall() throws Exception {
    dns = new Dnsmasq(1);
    String a = start(2);
    String b = start(3);
    records(a, b);
    try (DnsDiscovery discovery =
            DnsDiscovery.builder().nameServer("127.0.0.1", dns.address().getPort())
                .everyService("dns:///orders.test:" + port).build();
        RpcxClient client = client(discovery)) {
      awaitCalls(a, 100, 10);
      awaitCalls(b, 100, 10);

      String c = start(4);
      String d = start(5);
      records(a, b, c, d);
      long scaled = System.nanoTime();
      awaitCalls(c, 100, 10);
      awaitCalls(d, 100, 10);
      System.out.printf(
          "DnsClusterTest: 2 -> 4 servers, new ones taking calls %d ms after the records changed (TTL 1 s)%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - scaled));

      // Scale down: out of the records first, then stopped (as Kubernetes does).
      records(c, d);
      await(
          () -> client.endpoints(ClusterService.class).stream().map(EndpointStatus::address).sorted().toList()
              .equals(List.of(c + ":" + port, d + ":" + port)),
          () -> "2 servers left: " + client.endpoints(ClusterService.class), 10);
      servers.remove(a).stop();
      servers.remove(b).stop();
      awaitCalls(c, 200, 10);
      stopCalling();
    }
  }

  @Test
  void aReplacedServerIsFoundWhenTheOldOnesConnectionClosesNotAtTheTtl() throws Exception {
    dns = new Dnsmasq(3600); // an hour: only the lost connection can explain a new lookup
    String a = start(2);
    String b = start(3);
    records(a, b);
    try (DnsDiscovery discovery =
            DnsDiscovery.builder().nameServer("127.0.0.1", dns.address().getPort())
                .everyService("dns:///orders.test:" + port)
                .refreshInterval(Duration.ofMinutes(10)).build();
        RpcxClient client = client(discovery)) {
      awaitCalls(a, 100, 10);
      awaitCalls(b, 100, 10);

      String c = start(4);
      records(a, c);
      long replaced = System.nanoTime();
      servers.remove(b).stop(); // GOAWAY: its connection closes, the client looks again
      awaitCalls(c, 100, 5);
      long found = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - replaced);
      System.out.printf("DnsClusterTest: the replacement took calls %d ms after the old server stopped%n", found);
      assertTrue(found < 5_000, "found after " + found + " ms");
      await(
          () -> client.endpoints(ClusterService.class).stream().map(EndpointStatus::address).sorted().toList()
              .equals(List.of(a + ":" + port, c + ":" + port)),
          () -> "the old server replaced: " + client.endpoints(ClusterService.class), 10);
      stopCalling();
    }
  }
}
