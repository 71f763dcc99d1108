package io.rpcx.kubernetes;

import static io.rpcx.kubernetes.Slices.pod;
import static io.rpcx.kubernetes.Slices.ready;
import static io.rpcx.kubernetes.Slices.slice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real RPCX servers on 127.0.0.1, listed as pods in the EndpointSlices of the mock API server, and
 * a client that finds them there under callers that never stop: scaled from 2 to 4, a pod
 * terminating with calls in flight, the API server's connections cut: 0 failed calls.
 */
@Timeout(90)
class KubernetesClusterTest {
  private static final int CALLERS = 4;

  private final List<RpcxServer> servers = new ArrayList<>();
  private final Map<String, LongAdder> callsBy = new ConcurrentHashMap<>();
  private final LongAdder failures = new LongAdder();
  private final List<Throwable> failed = new ArrayList<>();
  private final AtomicBoolean calling = new AtomicBoolean(true);
  private final List<Thread> callers = new ArrayList<>();
  private MockKubernetes kubernetes;

  @AfterEach
  void stop() throws Exception {
    calling.set(false);
    for (Thread caller : callers) {
      caller.join(10_000);
    }
    for (RpcxServer server : servers) {
      server.stop();
    }
    if (kubernetes != null) {
      kubernetes.close();
    }
  }

  private int startServer(String name) {
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Whoami.Impl(name))
            .shutdownGracePeriod(java.time.Duration.ofSeconds(2))
            .build()
            .start();
    servers.add(server);
    return server.port();
  }

  /** Pod {@code n}: the server {@code s<n>} on its own port, so in a slice of its own. */
  private void list(int n, int port, boolean ready, boolean terminating) {
    kubernetes.apply(
        slice("orders-" + n, "orders", "rpcx", port,
            List.of(pod("pod-" + n, "127.0.0.1", ready, terminating))));
  }

  private long calls(String server) {
    return callsBy.computeIfAbsent(server, key -> new LongAdder()).sum();
  }

  private void awaitCalls(String server, long more) {
    long target = calls(server) + more;
    Recorder.await(() -> calls(server) >= target, () -> more + " more calls to " + server + ": " + callsBy);
  }

  @Test
  void callsFollowThePodsWithNoFailedCall() throws Exception {
    kubernetes = new MockKubernetes();
    int[] ports = new int[5];
    for (int n = 1; n <= 4; n++) {
      ports[n] = startServer("s" + n);
    }
    list(1, ports[1], true, false);
    list(2, ports[2], true, false);
    try (KubernetesDiscovery discovery =
            KubernetesDiscovery.builder()
                .client(kubernetes.client())
                .namespace(MockKubernetes.NAMESPACE)
                .everyService("orders")
                .portName("rpcx")
                .build();
        RpcxClient client = RpcxClient.builder().discovery(discovery).build()) {
      Whoami whoami = client.create(Whoami.class);
      for (int i = 0; i < CALLERS; i++) {
        Thread caller = new Thread(() -> call(whoami), "caller-" + i);
        callers.add(caller);
        caller.start();
      }
      awaitCalls("s1", 100);
      awaitCalls("s2", 100);

      // Scale up: the new pods take calls as soon as they are ready.
      list(3, ports[3], false, false);
      list(4, ports[4], false, false);
      list(3, ports[3], true, false);
      list(4, ports[4], true, false);
      awaitCalls("s3", 100);
      awaitCalls("s4", 100);

      // A pod terminates while calls run on it: they finish, and it gets no new call.
      List<CompletableFuture<String>> slow = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        slow.add(CompletableFuture.supplyAsync(() -> whoami.slow(1_000)));
      }
      Recorder.await(
          () -> servers.get(0).callsInFlight() > 0, () -> "a slow call in flight on s1");
      list(1, ports[1], true, true);
      Recorder.await(
          () -> client.endpoints(Whoami.class).stream().noneMatch(s -> s.address().endsWith(":" + ports[1])),
          () -> "s1 out of the list: " + client.endpoints(Whoami.class));
      long s1Calls = calls("s1");
      for (CompletableFuture<String> call : slow) {
        call.get(10, TimeUnit.SECONDS); // every one answered, s1's included
      }
      awaitCalls("s2", 200);
      // At most the callers' calls already on their way when it left (one each).
      assertTrue(
          calls("s1") - s1Calls <= CALLERS,
          "calls s1 answered after it left: " + (calls("s1") - s1Calls));

      // The API server is cut off: calls go on; a change made meanwhile arrives afterwards.
      kubernetes.disconnect();
      list(1, ports[1], true, false);
      awaitCalls("s4", 200);
      kubernetes.reconnect();
      awaitCalls("s1", 100);

      List<EndpointStatus> endpoints = client.endpoints(Whoami.class);
      assertEquals(4, endpoints.size(), endpoints::toString);
      assertTrue(
          endpoints.stream().allMatch(s -> s.state() == EndpointStatus.State.AVAILABLE),
          "ejection and probes see the pods as any other servers: " + endpoints);
      calling.set(false); // before the client closes under the callers
      for (Thread caller : callers) {
        caller.join(10_000);
      }
    }
    assertEquals(0, failures.sum(), () -> "failed calls: " + failed);
  }

  @Test
  void aServiceWithNoPortOfTheNameFailsCallsAtOnceNamingTheSourceAndWhy() throws Exception {
    kubernetes = new MockKubernetes();
    kubernetes.apply(
        slice("orders-1", "orders", "http", 8080, List.of(pod("pod-1", "127.0.0.1", true, false))));
    try (LogCapture log = LogCapture.of("io.rpcx");
        KubernetesDiscovery discovery =
            KubernetesDiscovery.builder()
                .client(kubernetes.client())
                .namespace(MockKubernetes.NAMESPACE)
                .everyService("orders")
                .portName("rpcx")
                .build();
        RpcxClient client = RpcxClient.builder().discovery(discovery).build()) {
      Whoami whoami = client.create(Whoami.class);
      long start = System.nanoTime();
      io.rpcx.core.UnavailableException failure =
          org.junit.jupiter.api.Assertions.assertThrows(
              io.rpcx.core.UnavailableException.class, whoami::name);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertEquals(
          "whoami/name was not sent: Kubernetes EndpointSlices of Service shop/orders (port"
              + " 'rpcx') lists no server for service 'whoami': the EndpointSlices of Service"
              + " shop/orders have no port named 'rpcx' (their ports: http)",
          failure.getMessage());
      assertTrue(millis < 1_000, "failed at once: " + millis + " ms");
      assertEquals(1, log.warningsContaining("no port named 'rpcx'").size());
      kubernetes.awaitWatchOpen(); // before the watch closes: a close during its handshake upsets the mock
    }
  }

  private void call(Whoami whoami) {
    while (calling.get()) {
      try {
        callsBy.computeIfAbsent(whoami.name(), key -> new LongAdder()).increment();
      } catch (RuntimeException e) {
        record(e);
      }
    }
  }

  private synchronized void record(Throwable failure) {
    failures.increment();
    if (failed.size() < 10) {
      failed.add(failure);
    }
  }
}
