package io.rpcx.client.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.LoadBalancing;
import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.TestCalls;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.internal.testing.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster under many concurrent callers: a server that is down gets none of their calls while
 * another may take them (it is probed in the background instead), and every call goes to a healthy
 * server. A lost connection asks the discovery to look again; a server that leaves the list
 * drains; with no server listed, calls fail at once, naming the source and its problem.
 */
@Timeout(30)
class ServiceClusterTest {
  private static final int CALLERS = 8;
  private static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
  private static final String DOWN = "10.0.0.2:9000";

  @Test
  void aServerThatIsDownGetsNoCallerCallWhileManyCallersGoOn() throws Exception {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    AtomicReference<TestChannel> downChannel = new AtomicReference<>();
    AtomicInteger reachedDown = new AtomicInteger();
    AtomicInteger healthy = new AtomicInteger();
    Members members =
        new Members(
            (endpoint, disconnected) -> {
              String address = endpoint.address();
              if (!address.equals(DOWN)) {
                return new TestChannel(address, call -> healthy.incrementAndGet());
              }
              // Refuses every call at once, as a server whose port is closed does.
              TestChannel channel =
                  new TestChannel(
                      address,
                      call -> {
                        reachedDown.incrementAndGet();
                        call.fail(UnavailableException.notProcessed("connection refused"));
                      });
              downChannel.set(channel);
              return channel;
            },
            // Probed about every millisecond: hundreds of probes while the callers run.
            new Ejection(5, 1, 1),
            scheduler);
    ServiceCluster cluster = new ServiceCluster("peeks", "a test", LoadBalancing.ROUND_ROBIN, members);
    cluster.onEndpoints(
        List.of(
            ServiceEndpoint.of("10.0.0.1", 9000),
            ServiceEndpoint.of("10.0.0.2", 9000),
            ServiceEndpoint.of("10.0.0.3", 9000)));
    Member down = null;
    for (Member member : cluster.members()) {
      if (member.address().equals(DOWN)) {
        down = member;
      }
    }
    try (LogCapture logs = LogCapture.of(Member.class)) {
      for (int i = 0; i < 5; i++) {
        PendingCall call = TestCalls.call("peek", "x");
        down.start(call, System.nanoTime());
        down.ended(call, CallOutcome.UNAVAILABLE);
      }
      assertEquals(1, logs.lines(Level.WARN).size(), logs::all);
      assertTrue(
          logs.lines(Level.WARN).get(0).matches(
              "WARN Ejecting " + DOWN + " for at least \\d+ ms after 5 failed calls in a row;"
                  + " probing it in the background"),
          logs::all);
    }
    assertNotEquals(EndpointStatus.State.AVAILABLE, down.state(System.nanoTime()), "ejected");
    int reachedBefore = reachedDown.get();

    CyclicBarrier together = new CyclicBarrier(CALLERS);
    AtomicInteger sent = new AtomicInteger();
    List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < CALLERS; t++) {
      Thread caller =
          new Thread(
              () -> {
                try {
                  together.await();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                long end = System.nanoTime() + RUN_NANOS;
                while (System.nanoTime() - end < 0) {
                  cluster.send(TestCalls.call("peek", "x"));
                  sent.incrementAndGet();
                }
              });
      callers.add(caller);
      caller.start();
    }
    for (Thread caller : callers) {
      caller.join();
    }
    scheduler.shutdownNow();

    assertTrue(
        downChannel.get().probes.get() > 10,
        "the server that is down was probed again and again: " + downChannel.get().probes);
    assertEquals(0, reachedDown.get() - reachedBefore, "callers' calls that reached it");
    assertEquals(sent.get(), healthy.get(), "every call went to a healthy server");
  }
  @Test
  void aLostConnectionAsksTheDiscoveryToLookAgain() {
    Map<String, Runnable> disconnects = new ConcurrentHashMap<>();
    Members members =
        new Members(
            (endpoint, disconnected) -> {
              disconnects.put(endpoint.address(), disconnected);
              return new TestChannel(endpoint.address());
            },
            new Ejection(5, 1_000, 1_000),
            Executors.newSingleThreadScheduledExecutor());
    AtomicInteger refreshes = new AtomicInteger();
    ServiceDiscovery lookedUp =
        new ServiceDiscovery() {
          @Override
          public Subscription subscribe(String service, Listener listener) {
            listener.onEndpoints(
                List.of(ServiceEndpoint.of("10.0.0.1", 9000), ServiceEndpoint.of("10.0.0.2", 9000)));
            return new Subscription() {
              @Override
              public void refresh() {
                refreshes.incrementAndGet();
              }

              @Override
              public void close() {}
            };
          }

          @Override
          public String describe() {
            return "a looked-up list";
          }
        };
    ServiceCluster cluster =
        new ServiceCluster("peeks", "a looked-up list", LoadBalancing.ROUND_ROBIN, members)
            .subscribe(lookedUp);

    disconnects.get("10.0.0.2:9000").run();
    assertEquals(1, refreshes.get());

    cluster.close();
    disconnects.get("10.0.0.1:9000").run();
    assertEquals(1, refreshes.get(), "a cluster that let go of its servers hears nothing more");
  }

  @Test
  void withNoServerListedCallsFailAtOnceNamingTheSourceAndItsProblem() {
    Members members =
        new Members(
            (endpoint, disconnected) -> new TestChannel(endpoint.address()),
            new Ejection(5, 1_000, 1_000),
            Executors.newSingleThreadScheduledExecutor());
    ServiceCluster cluster =
        new ServiceCluster(
            "peeks", "Kubernetes EndpointSlices of Service shop/peeks (port 'rpcx')",
            LoadBalancing.ROUND_ROBIN, members);
    cluster.onProblem("its EndpointSlices have no port named 'rpcx' (ports: http)");
    PendingCall call = TestCalls.call("peek", "x");
    cluster.send(call);
    UnavailableException failure = TestCalls.failure(call);
    assertEquals(
        "carts/peek was not sent: Kubernetes EndpointSlices of Service shop/peeks (port 'rpcx')"
            + " lists no server for service 'peeks': its EndpointSlices have no port named 'rpcx'"
            + " (ports: http)",
        failure.getMessage());
    assertTrue(failure.isSafeToRetry());
    assertFalse(cluster.hasUsableServer(), "so the retry loop gives up at once");
  }

  @Test
  void aServerThatLeavesTheListTakesNoNewCallAndIsRetiredToDrain() {
    Map<String, TestChannel> channels = new ConcurrentHashMap<>();
    Members members =
        new Members(
            (endpoint, disconnected) ->
                channels.computeIfAbsent(endpoint.address(), TestChannel::new),
            new Ejection(5, 1_000, 1_000),
            Executors.newSingleThreadScheduledExecutor());
    ServiceCluster cluster = new ServiceCluster("peeks", "a test", LoadBalancing.ROUND_ROBIN, members);
    cluster.onEndpoints(
        List.of(ServiceEndpoint.of("10.0.0.1", 9000), ServiceEndpoint.of("10.0.0.2", 9000)));
    cluster.onEndpoints(List.of(ServiceEndpoint.of("10.0.0.1", 9000)));
    assertTrue(channels.get("10.0.0.2:9000").retired, "retired: it drains its calls in flight");
    for (int i = 0; i < 10; i++) {
      cluster.send(TestCalls.call("peek", "x"));
    }
    assertEquals(10, channels.get("10.0.0.1:9000").sent.size());
    assertEquals(0, channels.get("10.0.0.2:9000").sent.size());
  }
  @Test
  void aClientInAZonePrefersTheServersOfItsZoneWhileOneMayTakeTheCall() {
    Map<String, TestChannel> channels = new ConcurrentHashMap<>();
    Members members =
        new Members(
            (endpoint, disconnected) ->
                channels.computeIfAbsent(endpoint.address(), TestChannel::new),
            new Ejection(5, 1_000, 1_000),
            Executors.newSingleThreadScheduledExecutor());
    ServiceCluster cluster =
        new ServiceCluster("peeks", "a test", LoadBalancing.LEAST_IN_FLIGHT, members, "eu-1a");
    cluster.onEndpoints(
        List.of(
            ServiceEndpoint.of("10.0.0.1", 9000, Map.of(ServiceEndpoint.ZONE, "eu-1a")),
            ServiceEndpoint.of("10.0.0.2", 9000, Map.of(ServiceEndpoint.ZONE, "eu-1b")),
            ServiceEndpoint.of("10.0.0.3", 9000, Map.of(ServiceEndpoint.ZONE, "eu-1a")),
            ServiceEndpoint.of("10.0.0.4", 9000)));
    for (int i = 0; i < 100; i++) {
      cluster.send(TestCalls.call("peek", "x"));
    }
    assertEquals(0, channels.get("10.0.0.2:9000").sent.size() + channels.get("10.0.0.4:9000").sent.size());
    assertTrue(channels.get("10.0.0.1:9000").sent.size() > 20, "both of the zone take calls");
    assertTrue(channels.get("10.0.0.3:9000").sent.size() > 20, "both of the zone take calls");

    // The zone's servers cannot take calls (waiting to reconnect): the others take them.
    channels.get("10.0.0.1:9000").accepting = false;
    channels.get("10.0.0.3:9000").accepting = false;
    for (int i = 0; i < 100; i++) {
      cluster.send(TestCalls.call("peek", "x"));
    }
    assertEquals(100, channels.get("10.0.0.2:9000").sent.size() + channels.get("10.0.0.4:9000").sent.size());

    // One is back: the zone has it again.
    channels.get("10.0.0.3:9000").accepting = true;
    int before = channels.get("10.0.0.3:9000").sent.size();
    for (int i = 0; i < 10; i++) {
      cluster.send(TestCalls.call("peek", "x"));
    }
    assertEquals(before + 10, channels.get("10.0.0.3:9000").sent.size());
  }

  @Test
  void consistentHashingIgnoresZonesSoThatKeysKeepTheirServer() {
    Map<String, TestChannel> channels = new ConcurrentHashMap<>();
    Members members =
        new Members(
            (endpoint, disconnected) ->
                channels.computeIfAbsent(endpoint.address(), TestChannel::new),
            new Ejection(5, 1_000, 1_000),
            Executors.newSingleThreadScheduledExecutor());
    ServiceCluster cluster =
        new ServiceCluster("carts", "a test", LoadBalancing.CONSISTENT_HASHING, members, "eu-1a");
    cluster.onEndpoints(
        List.of(
            ServiceEndpoint.of("10.0.0.1", 9000, Map.of(ServiceEndpoint.ZONE, "eu-1a")),
            ServiceEndpoint.of("10.0.0.2", 9000, Map.of(ServiceEndpoint.ZONE, "eu-1b"))));
    for (int i = 0; i < 200; i++) {
      cluster.send(TestCalls.call("load", "customer-" + i));
    }
    assertTrue(channels.get("10.0.0.2:9000").sent.size() > 20, "keys of the other zone's server");
  }
}
