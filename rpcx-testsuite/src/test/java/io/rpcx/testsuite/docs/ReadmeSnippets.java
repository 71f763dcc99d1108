package io.rpcx.testsuite.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.observation.ObservationRegistry;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.NonBlocking;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.LoadBalancing;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.StatusCode;
import io.rpcx.micrometer.RpcxClientObservations;
import io.rpcx.micrometer.RpcxServerObservations;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;
import io.rpcx.spring.boot.EnableRpcxClients;
import io.rpcx.testing.Faults;
import io.rpcx.testing.RpcxExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;

/**
 * The Java snippets of README.md, each line as the README has it, in code that compiles:
 * {@link DocSnippetsTest} checks that every line of every snippet is here, in order, so that a
 * README snippet that stops compiling fails the build. Never run (the README's addresses are
 * examples), except the test of "Testing your services", {@link OrderServiceTest}, which the build
 * runs: its server is in-process.
 */
final class ReadmeSnippets {
  private ReadmeSnippets() {}

  /** The value type the snippets use. */
  public record OrderInfo(long id, String item, int quantity) {}

  /** The checked exception the snippets declare. */
  public static final class OrderNotFoundException extends Exception {
    public OrderNotFoundException(String message) {
      super(message);
    }
  }

  // "Your first service"

  @RPCXClient(name = "orders", address = "127.0.0.1", port = 9000)
  public interface OrderService {
    OrderInfo loadOrder(OrderInfo order);              // POJOs and records need no IDL
    @Method("findOrder") OrderInfo find(long id) throws OrderNotFoundException;
    CompletableFuture<List<OrderInfo>> recent(int n);   // asynchronous
  }

  @RPCXServer(name = "orders")
  public static class OrderServiceImpl implements OrderService {
    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      return order;
    }

    @Override
    public OrderInfo find(long id) throws OrderNotFoundException {
      throw new OrderNotFoundException("no order " + id);
    }

    @Override
    public CompletableFuture<List<OrderInfo>> recent(int n) {
      return CompletableFuture.completedFuture(List.of());
    }
  }

  static RpcxServer publish() {
    RpcxServer server = RpcxServer.builder()
        .port(9000)
        .scan("com.example.orders")        // or .service(new OrderServiceImpl())
        .build()
        .start();
    return server;
  }

  static OrderInfo call(OrderInfo draft) {
    RpcxClient client = RpcxClient.builder()
        .target("orders.internal", 9000)   // overrides the annotation's address
        .build();                          // share one client: it is thread-safe
    OrderService orders = client.create(OrderService.class);
    OrderInfo order = orders.loadOrder(draft);
    return order;
  }

  // "Many servers"

  static RpcxClient manyServers() {
    ZooKeeperRegistry zooKeeper = ZooKeeperRegistry.builder().connectString("zk1:2181,zk2:2181").build();
    RpcxServer.builder().service(new OrderServiceImpl()).registrar(zooKeeper).build().start();

    RpcxClient client = RpcxClient.builder()
        .discovery(zooKeeper)                         // or .targets(OrderService.class, "h1:9000", "h2:9000")
        .loadBalancing(LoadBalancing.LEAST_IN_FLIGHT) // the default; ROUND_ROBIN, CONSISTENT_HASHING
        .build();
    return client;
  }

  // "Virtual threads"

  static RpcxServer virtualThreads() {
    RpcxServer server = RpcxServer.builder()
        .service(new OrderServiceImpl())
        .virtualThreads()                  // Java 21+: a virtual thread per call, named rpcx-server-virtual-n
        .build()
        .start();
    return server;
  }

  static RpcxServer workerPool() {
    RpcxServer pooled = RpcxServer.builder()
        .service(new OrderServiceImpl())
        .workerPool()                      // any Java: 200 platform threads, 10,000 calls queued
        .build();
    return pooled;
  }

  // "Methods that never block"

  public interface PriceService {
    long price(String sku);
  }

  @RPCXServer(name = "prices")
  public class PriceServiceImpl implements PriceService {
    private final Map<String, Long> prices = new ConcurrentHashMap<>();

    @NonBlocking                         // an in-memory look-up: runs on the network thread
    @Override
    public long price(String sku) {
      return prices.getOrDefault(sku, 0L);
    }
  }

  // "Seeing every call"

  static RpcxClient observed(
      RpcxServer.Builder serverBuilder, ObservationRegistry observationRegistry) {
    RpcxServerObservations.instrument(serverBuilder, observationRegistry);
    RpcxClient client = RpcxClient.builder()
        .target("orders", 9000)
        .intercept(RpcxClientObservations.interceptor(observationRegistry))
        .build();
    return client;
  }

  // "Spring Boot"

  @SpringBootApplication
  @EnableRpcxClients(basePackageClasses = OrderService.class)
  public static class ShopApplication {}

  @Service
  public class Checkout {
    private final OrderService orders; // calls the remote "orders" service

    public Checkout(OrderService orders) {
      this.orders = orders;
    }
  }

  @Service
  @RPCXServer(name = "orders")
  public static class SpringOrderService extends OrderServiceImpl {}

  // "Testing your services"

  static class OrderServiceTest {
    @RegisterExtension                                  // static: one server for the class
    static final RpcxExtension rpcx = RpcxExtension.withServices(new OrderServiceImpl())
        .inProcess()                                    // or TCP on 127.0.0.1, a free port
        .faults(Faults.builder()                        // scripted, the same on every run
            .latency("orders/recent", Duration.ofMillis(200))
            .answer("orders/findOrder", StatusCode.UNAVAILABLE, "down for maintenance")
            .build());

    @Test
    void loadsAnOrder() {
      OrderInfo order = new OrderInfo(7, "book", 1);
      assertEquals(order, rpcx.create(OrderService.class).loadOrder(order));
    }
  }
}
