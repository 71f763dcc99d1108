package io.rpcx.spring.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.internal.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;

/**
 * The discovery over a DiscoveryClient whose answers the test sets: instances become endpoints
 * with their zone and instance id; it asks again on its timer, on a catalog change and on a lost
 * connection (at most once a second); a failing registry keeps the servers known.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpringCloudDiscoveryTest {
  private final AtomicReference<Object> answer = new AtomicReference<>(List.of());
  private final AtomicInteger asked = new AtomicInteger();
  private final DiscoveryClient registry =
      new DiscoveryClient() {
        @Override
        public String description() {
          return "a test registry";
        }

        @Override
        @SuppressWarnings("unchecked")
        public List<ServiceInstance> getInstances(String serviceId) {
          asked.incrementAndGet();
          Object current = answer.get();
          if (current instanceof RuntimeException failure) {
            throw failure;
          }
          return (List<ServiceInstance>) current;
        }

        @Override
        public List<String> getServices() {
          return List.of("order-service");
        }
      };
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

  private static ServiceInstance instance(String id, String host, Map<String, String> metadata) {
    return new DefaultServiceInstance(id, "order-service", host, 8080, false, metadata);
  }

  private List<String> addresses() {
    return lists.get(lists.size() - 1).stream().map(ServiceEndpoint::address).toList();
  }

  private static void await(java.util.function.BooleanSupplier condition, String what) {
    EurekaTest.await(condition, what);
  }

  @Test
  void followsTheInstancesOnItsTimerAndOnCatalogChangesAndLostConnections() {
    answer.set(List.of(
        instance("o-1", "10.0.0.1", Map.of("rpcx-port", "9000", "zone", "eu-1a")),
        instance("o-2", "10.0.0.2", Map.of("port.rpcx", "9001"))));
    try (SpringCloudDiscovery discovery =
        SpringCloudDiscovery.builder(registry).service("orders", "order-service")
            .refreshInterval(Duration.ofMillis(200)).build()) {
      ServiceDiscovery.Subscription subscription = discovery.subscribe("orders", listener);
      assertEquals(List.of("10.0.0.1:9000", "10.0.0.2:9001"), addresses(), "before subscribe returns");
      assertEquals(Map.of("zone", "eu-1a", "instance", "o-1"), lists.get(0).get(0).metadata());
      assertEquals(
          "Spring Cloud discovery (a test registry) of service id 'order-service'",
          discovery.describe("orders"));

      answer.set(List.of(instance("o-2", "10.0.0.2", Map.of("port.rpcx", "9001"))));
      await(() -> addresses().equals(List.of("10.0.0.2:9001")), "the timer's lookup");

      int before = asked.get();
      for (int i = 0; i < 50; i++) {
        subscription.refresh();
        discovery.catalogChanged();
      }
      await(() -> asked.get() > before, "a lookup asked for");
      assertTrue(asked.get() - before <= 3, "a storm of refreshes is a few lookups: " + (asked.get() - before));
      subscription.close();
    }
  }

  @Test
  void aFailingRegistryKeepsTheServersKnown() {
    answer.set(List.of(instance("o-1", "10.0.0.1", Map.of("rpcx-port", "9000"))));
    try (LogCapture log = LogCapture.of("io.rpcx.spring.cloud");
        SpringCloudDiscovery discovery =
            SpringCloudDiscovery.builder(registry).refreshInterval(Duration.ofMillis(100)).build()) {
      discovery.subscribe("order-service", listener);
      answer.set(new IllegalStateException("registry unreachable"));
      await(() -> !problems.isEmpty(), "a problem");
      assertEquals(
          List.of("Spring Cloud discovery (a test registry) failed to list the instances of"
              + " service id 'order-service': java.lang.IllegalStateException: registry"
              + " unreachable; keeping the 1 servers known"),
          log.warningsContaining("failed to list"));
      assertEquals(1, lists.size());
      answer.set(List.of(instance("o-3", "10.0.0.3", Map.of("rpcx-port", "9000"))));
      await(() -> addresses().equals(List.of("10.0.0.3:9000")), "the registry back");
    }
  }

  @Test
  void aBadPortIsNamed() {
    IllegalArgumentException bad =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> SpringCloudDiscovery.endpoint(instance("o-1", "10.0.0.1", Map.of("rpcx-port", "http"))));
    assertEquals("metadata rpcx-port: 'http' (expected: 1-65535)", bad.getMessage());
  }
}
