package io.rpcx.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.internal.config.ClientConfig;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.internal.config.ConnectionSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The builder is the client's only builder: a client not told otherwise runs with the defaults its
 * Javadoc states, and the configuration a builder makes is a copy, which later calls on the
 * builder leave alone.
 */
class RpcxClientBuilderTest {

  @Test
  void aClientNotToldOtherwiseRunsWithTheDocumentedDefaults() {
    ClientConfig config = RpcxClient.builder().config();
    assertEquals(RpcxClient.DEFAULT_TIMEOUT_MILLIS, config.defaultTimeoutMillis());
    assertEquals(5_000, config.defaultTimeoutMillis());
    assertEquals(Duration.ofSeconds(3), config.connectTimeout());
    // A silent server is found out within 1 s + 3 s, before the default call timeout of 5 s.
    assertEquals(Duration.ofSeconds(1), config.keepAliveInterval());
    assertEquals(Duration.ofSeconds(3), config.keepAliveTimeout());
    assertEquals(false, config.keepAliveWithoutCalls());
    assertEquals(Duration.ofSeconds(1), config.initialBackoff());
    assertEquals(Duration.ofSeconds(120), config.maxBackoff());
    assertEquals(3, config.maxAttempts());
    assertEquals(0.2, config.retryRatio());
    assertEquals(10, config.minRetriesPerSecond());
    assertEquals(new Ejection(5, 1_000, 30_000), config.ejection());
    assertEquals(LoadBalancing.LEAST_IN_FLIGHT, config.loadBalancing());
    assertEquals(LoadBalancing.LEAST_IN_FLIGHT, config.loadBalancing(Runnable.class));
    assertNull(config.defaultTarget());
    assertNull(config.discovery());
    assertNull(config.callbackExecutor());
    assertEquals(Map.of(), config.targets());
    assertEquals(Map.of(), config.metadata());
    assertEquals(List.of(), config.interceptors());
    assertEquals(List.of(), config.interfaces());
    ConnectionSettings connection = config.connection();
    assertEquals(Runtime.getRuntime().availableProcessors(), connection.ioThreads());
    assertTrue(connection.nativeTransport());
    assertEquals(RpcxClient.DEFAULT_MAX_FRAME_SIZE, connection.maxFrameSize());
    assertEquals(16 * 1024 * 1024, connection.maxFrameSize());
    assertEquals(64, connection.maxNestingDepth());
    assertEquals(10_000, connection.maxConcurrentCallsPerConnection());
    assertTrue(connection.maxBufferedInboundBytes() >= 16 * 1024 * 1024);
    assertEquals(1024, connection.maxStreamWindow());
    assertEquals(4 * 1024 * 1024, connection.maxStreamBufferedBytes());
    assertNull(connection.tls());
    assertNull(connection.inProcessName());
  }

  @Test
  void eachSettingReachesTheConfiguration() {
    ClientConfig config =
        RpcxClient.builder()
            .target("orders.internal", 9000)
            .defaultTimeout(Duration.ofMillis(1500))
            .connectTimeout(Duration.ofSeconds(2))
            .keepAlive(Duration.ofSeconds(20), Duration.ofSeconds(4))
            .keepAliveWithoutCalls(true)
            .reconnectBackoff(Duration.ofMillis(200), Duration.ofSeconds(5))
            .maxAttempts(1)
            .retryBudget(0.5, 3)
            .ejection(7, Duration.ofMillis(300), Duration.ofSeconds(9))
            .loadBalancing(LoadBalancing.ROUND_ROBIN)
            .ioThreads(2)
            .nativeTransport(false)
            .maxFrameSize(2048)
            .maxNestingDepth(5)
            .maxConcurrentCallsPerConnection(6)
            .maxBufferedInboundBytes(7_000_000)
            .maxStreamWindow(8)
            .maxStreamBufferedBytes(9_000)
            .config();
    assertEquals(List.of(ServiceEndpoint.of("orders.internal", 9000)), config.defaultTarget());
    assertEquals(1500, config.defaultTimeoutMillis());
    assertEquals(Duration.ofSeconds(2), config.connectTimeout());
    assertEquals(Duration.ofSeconds(20), config.keepAliveInterval());
    assertEquals(Duration.ofSeconds(4), config.keepAliveTimeout());
    assertEquals(true, config.keepAliveWithoutCalls());
    assertEquals(Duration.ofMillis(200), config.initialBackoff());
    assertEquals(Duration.ofSeconds(5), config.maxBackoff());
    assertEquals(1, config.maxAttempts());
    assertEquals(0.5, config.retryRatio());
    assertEquals(3, config.minRetriesPerSecond());
    assertEquals(new Ejection(7, 300, 9_000), config.ejection());
    assertEquals(LoadBalancing.ROUND_ROBIN, config.loadBalancing());
    assertEquals(
        new ConnectionSettings(2, false, 2048, 5, 6, 7_000_000, 8, 9_000, null, null),
        config.connection());
  }

  @Test
  void anInProcessClientCallsTheServerOfThatName() {
    ClientConfig config = RpcxClient.builder().inProcess("orders").config();
    assertEquals("orders", config.connection().inProcessName());
    assertEquals(List.of(ServiceEndpoint.of("orders", 1)), config.defaultTarget());
  }

  @Test
  void theConfigurationIsACopyThatLaterCallsOnTheBuilderLeaveAlone() {
    ClientInterceptor first = new ClientInterceptor() {};
    ClientInterceptor second = new ClientInterceptor() {};
    RpcxClient.Builder builder =
        RpcxClient.builder()
            .metadata("tenant", "acme")
            .intercept(first)
            .targets(Runnable.class, "10.0.0.1:9000")
            .loadBalancing(Runnable.class, LoadBalancing.ROUND_ROBIN)
            .register(Runnable.class)
            .maxAttempts(2);
    ClientConfig before = builder.config();
    builder
        .metadata("tenant", "other")
        .metadata("zone", "eu-1")
        .intercept(second)
        .targets(Runnable.class, "10.0.0.2:9000")
        .loadBalancing(Runnable.class, LoadBalancing.LEAST_IN_FLIGHT)
        .register(AutoCloseable.class)
        .maxAttempts(4);
    ClientConfig after = builder.config();

    assertEquals(Map.of("tenant", "acme"), before.metadata());
    assertEquals(List.of(first), before.interceptors());
    assertEquals(
        Map.of(Runnable.class, List.of(ServiceEndpoint.of("10.0.0.1", 9000))), before.targets());
    assertEquals(LoadBalancing.ROUND_ROBIN, before.loadBalancing(Runnable.class));
    assertEquals(List.of(Runnable.class), before.interfaces());
    assertEquals(2, before.maxAttempts());

    assertEquals(Map.of("tenant", "other", "zone", "eu-1"), after.metadata());
    assertEquals(List.of(first, second), after.interceptors());
    assertEquals(
        Map.of(Runnable.class, List.of(ServiceEndpoint.of("10.0.0.2", 9000))), after.targets());
    assertEquals(LoadBalancing.LEAST_IN_FLIGHT, after.loadBalancing(Runnable.class));
    assertEquals(List.of(Runnable.class, AutoCloseable.class), after.interfaces());
    assertEquals(4, after.maxAttempts());

    assertThrows(UnsupportedOperationException.class, () -> after.metadata().put("k", "v"));
    assertThrows(UnsupportedOperationException.class, () -> after.interceptors().clear());
  }

  @RPCXClient(name = "orders", address = "grpc://127.0.0.1", port = 50051)
  interface GrpcAnnotated {
    String status(long order);
  }

  @Test
  void anEndpointNamesItsProtocolWhereverItIsWritten() {
    ServiceEndpoint grpc = ServiceEndpoint.parse("grpc://orders.internal:50051");
    assertEquals("grpc", grpc.protocol());
    assertEquals(
        List.of(grpc), RpcxClient.builder().target("grpc://orders.internal:50051").config().defaultTarget());
    assertEquals(
        List.of(ServiceEndpoint.of("orders.internal", 9000)),
        RpcxClient.builder().target("orders.internal:9000").config().defaultTarget());
    InvalidSettingException refused =
        assertThrows(InvalidSettingException.class, () -> RpcxClient.builder().target("http://orders:80"));
    assertEquals("host:port, rpcx://host:port or grpc://host:port", refused.expected());
    try (RpcxClient client = RpcxClient.builder().build()) {
      client.create(GrpcAnnotated.class);
      assertEquals(
          List.of("grpc://127.0.0.1:50051"),
          client.endpoints(GrpcAnnotated.class).stream().map(EndpointStatus::address).toList());
    }
  }
}
