package io.rpcx.kubernetes;

import static io.rpcx.kubernetes.Slices.pod;
import static io.rpcx.kubernetes.Slices.ready;
import static io.rpcx.kubernetes.Slices.slice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.internal.testing.LogCapture;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The discovery against fabric8's mock API server in CRUD mode: it follows the ready pods of a
 * Service through scale up, scale down, a rolling update and a pod going unready, resumes after
 * the watch connection is cut without dropping the servers it knows, and names what is wrong
 * with bad input (no port of the name, a malformed address, a refused token).
 */
@Timeout(60)
class KubernetesDiscoveryTest {
  private MockKubernetes kubernetes;
  private KubernetesDiscovery discovery;
  private final Recorder recorder = new Recorder();
  private ServiceDiscovery.Subscription subscription;

  @BeforeEach
  void startApiServer() throws Exception {
    kubernetes = new MockKubernetes();
  }

  @AfterEach
  void stop() throws Exception {
    kubernetes.awaitWatchOpen(); // if one was asked for: a close during its handshake upsets the mock
    if (subscription != null) {
      subscription.close();
    }
    if (discovery != null) {
      discovery.close();
    }
    kubernetes.close();
  }

  private void subscribe(KubernetesDiscovery.Builder builder, String service) {
    discovery = builder.client(kubernetes.client()).build();
    subscription = discovery.subscribe(service, recorder);
  }

  private static KubernetesDiscovery.Builder orders() {
    return KubernetesDiscovery.builder()
        .namespace(MockKubernetes.NAMESPACE)
        .everyService("orders")
        .portName("rpcx");
  }

  @Test
  void followsReadyPodsThroughScalingARollingUpdateAndAPodGoingUnready() {
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000,
            List.of(ready("pod-1", "10.0.0.1"), ready("pod-2", "10.0.0.2"))));
    subscribe(orders(), "echo");
    // The first list arrives before subscribe returns.
    assertEquals(List.of("10.0.0.1:9000", "10.0.0.2:9000"), recorder.addresses());
    ServiceEndpoint first = recorder.lists.get(0).get(0);
    assertEquals(Optional.of("zone-1"), first.zone());
    assertEquals(Optional.of("node-1"), first.node());
    assertEquals(Map.of("zone", "zone-1", "node", "node-1", "pod", "pod-1", "instance", "uid-pod-1"),
        first.metadata());

    // Scale up: a pod is listed once it is ready, not before.
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000,
            List.of(ready("pod-1", "10.0.0.1"), ready("pod-2", "10.0.0.2"),
                pod("pod-3", "10.0.0.3", false, false))));
    kubernetes.apply(
        slice("orders-b", "orders", "rpcx", 9000, List.of(ready("pod-4", "10.0.0.4"))));
    recorder.awaitAddresses(List.of("10.0.0.1:9000", "10.0.0.2:9000", "10.0.0.4:9000"));
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000,
            List.of(ready("pod-1", "10.0.0.1"), ready("pod-2", "10.0.0.2"),
                ready("pod-3", "10.0.0.3"))));
    recorder.awaitAddresses(
        List.of("10.0.0.1:9000", "10.0.0.2:9000", "10.0.0.3:9000", "10.0.0.4:9000"));

    // A pod goes unready (its readiness probe fails): no new calls.
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000,
            List.of(ready("pod-1", "10.0.0.1"), pod("pod-2", "10.0.0.2", false, false),
                ready("pod-3", "10.0.0.3"))));
    recorder.awaitAddresses(List.of("10.0.0.1:9000", "10.0.0.3:9000", "10.0.0.4:9000"));

    // A rolling update: a new pod (ready), an old one terminating though still serving.
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000,
            List.of(pod("pod-1", "10.0.0.1", true, true), pod("pod-2", "10.0.0.2", false, false),
                ready("pod-3", "10.0.0.3"), ready("pod-5", "10.0.0.5"))));
    recorder.awaitAddresses(List.of("10.0.0.3:9000", "10.0.0.5:9000", "10.0.0.4:9000"));

    // Scale down: pods and a whole slice go.
    kubernetes.delete("orders-b");
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000, List.of(ready("pod-5", "10.0.0.5"))));
    recorder.awaitAddresses(List.of("10.0.0.5:9000"));

    // A pod replaced at the same address is a new instance.
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000, List.of(ready("pod-6", "10.0.0.5"))));
    Recorder.await(
        () -> recorder.lists.get(recorder.lists.size() - 1).get(0).metadata().get("instance")
            .equals("uid-pod-6"),
        () -> "the new pod's uid");
  }

  @Test
  void resumesTheWatchAfterTheConnectionIsCutKeepingTheServersItKnows() {
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000,
            List.of(ready("pod-1", "10.0.0.1"), ready("pod-2", "10.0.0.2"))));
    subscribe(orders(), "echo");
    int listsBefore = recorder.lists.size();

    kubernetes.disconnect();
    // Scaled up while the client cannot see the API server.
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000,
            List.of(ready("pod-1", "10.0.0.1"), ready("pod-2", "10.0.0.2"),
                ready("pod-3", "10.0.0.3"))));
    // Several reconnect attempts fail meanwhile; the known servers stay.
    sleepAWhileDisconnected();
    assertEquals(listsBefore, recorder.lists.size(), "no list while the API server was away");
    assertEquals(List.of("10.0.0.1:9000", "10.0.0.2:9000"), recorder.addresses());

    kubernetes.reconnect();
    recorder.awaitAddresses(List.of("10.0.0.1:9000", "10.0.0.2:9000", "10.0.0.3:9000"));
  }

  /** Long enough for the watch to notice the cut and fail to reconnect a few times. */
  static void sleepAWhileDisconnected() {
    long until = System.nanoTime() + 500_000_000L;
    while (System.nanoTime() - until < 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
    }
  }

  @Test
  void aServiceWithNoPortOfTheNameIsReportedNamingThePortsItHas() {
    kubernetes.apply(
        slice("orders-a", "orders", "http", 8080, List.of(ready("pod-1", "10.0.0.1"))));
    try (LogCapture log = LogCapture.of("io.rpcx.kubernetes")) {
      subscribe(orders(), "echo");
      String expected =
          "the EndpointSlices of Service shop/orders have no port named 'rpcx' (their ports: http)";
      assertEquals(List.of(expected), recorder.problems);
      assertEquals(List.of(expected), log.warningsContaining("no port named"));
    }
    assertEquals(List.of(List.of()), recorder.lists);
  }

  @Test
  void aMalformedAddressIsSkippedNamingItsSliceAndTheOthersAreKept() {
    try (LogCapture log = LogCapture.of("io.rpcx.kubernetes")) {
      kubernetes.apply(
          slice("orders-a", "orders", "rpcx", 9000,
              List.of(ready("pod-1", "10.0.0.1"), ready("pod-2", "10.0.0.999"),
                  ready("pod-3", "orders 3"))));
      subscribe(orders(), "echo");
      assertEquals(List.of("10.0.0.1:9000"), recorder.addresses());
      assertEquals(
          List.of(
              "Skipping an endpoint of Service shop/orders: EndpointSlice orders-a lists address"
                  + " '10.0.0.999', which is not an IPv4 address",
              "Skipping an endpoint of Service shop/orders: EndpointSlice orders-a lists address"
                  + " 'orders 3', which is not an IPv4 address"),
          log.warningsContaining("Skipping"));
      // An FQDN slice may list host names, but only valid ones.
      kubernetes.apply(
          slice("orders-b", "orders", "FQDN", "rpcx", 9000,
              List.of(ready("pod-4", "orders-4.example"), ready("pod-5", "bad\nname"))));
      recorder.awaitAddresses(List.of("10.0.0.1:9000", "orders-4.example:9000"));
      assertEquals(
          List.of(
              "Skipping an endpoint of Service shop/orders: EndpointSlice orders-b lists an"
                  + " endpoint that cannot be used (bad\\u000aname): host: 'bad\\u000aname' has"
                  + " character 10 at 3 (expected: a host name or an IP address)"),
          log.warningsContaining("orders-b"));
    }
  }

  @Test
  void aRefusedTokenIsReportedAndTheKnownServersAreKept() {
    kubernetes.apply(
        slice("orders-a", "orders", "rpcx", 9000,
            List.of(ready("pod-1", "10.0.0.1"), ready("pod-2", "10.0.0.2"))));
    subscribe(orders(), "echo");
    try (LogCapture log = LogCapture.of("io.rpcx.kubernetes")) {
      kubernetes.expireToken();
      kubernetes.disconnect(); // the watch connects again, and is refused
      kubernetes.reconnect();
      String refused =
          "the Kubernetes API refused the credentials listing and watching the EndpointSlices of"
              + " Service shop/orders (401 Unauthorized): the service account token is missing,"
              + " expired or not valid";
      recorder.awaitProblem(refused::equals);
      assertEquals(List.of(refused + "; keeping the 2 servers known"), log.warningsContaining("401"));
      assertEquals(List.of("10.0.0.1:9000", "10.0.0.2:9000"), recorder.addresses());

      kubernetes.renewToken(); // as the kubelet does, and fabric8 reads the new one
      kubernetes.apply(
          slice("orders-a", "orders", "rpcx", 9000, List.of(ready("pod-2", "10.0.0.2"))));
      recorder.awaitAddresses(List.of("10.0.0.2:9000"));
    }
  }

  @Test
  void aMissingTokenFailsTheFirstListWithTheReason() {
    try (LogCapture log = LogCapture.of("io.rpcx.kubernetes")) {
      discovery = orders().client(kubernetes.client("")).build();
      subscription = discovery.subscribe("echo", recorder);
      assertEquals(List.of(), recorder.lists);
      assertTrue(recorder.problems.get(0).contains("(401 Unauthorized)"), recorder.problems::toString);
      assertEquals(1, log.warningsContaining("401 Unauthorized").size());
    }
  }

  @Test
  void describesWhatItLooksUpAndRefusesNamesKubernetesWouldRefuse() {
    discovery =
        KubernetesDiscovery.builder()
            .client(kubernetes.client())
            .namespace("shop")
            .service("orders", "orders-server")
            .portName("rpcx")
            .build();
    assertEquals(
        "Kubernetes EndpointSlices of Service shop/orders-server (port 'rpcx')",
        discovery.describe("orders"));
    assertEquals("Kubernetes EndpointSlices in namespace shop", discovery.describe("users"));
    subscription = discovery.subscribe("users", recorder);
    assertEquals(
        List.of("no Kubernetes Service is configured for it (KubernetesDiscovery.Builder.service"
            + " or everyService)"),
        recorder.problems);
    assertEquals(
        "portName: 'RPCX' (expected: a DNS label of at most 63 characters a-z 0-9 -, as"
            + " Kubernetes names are)",
        assertThrows(IllegalArgumentException.class,
            () -> KubernetesDiscovery.builder().portName("RPCX")).getMessage());
    assertEquals(
        "no Kubernetes Service: call everyService(...) or service(...)",
        assertThrows(IllegalArgumentException.class,
            () -> KubernetesDiscovery.builder().build()).getMessage());
  }
}
