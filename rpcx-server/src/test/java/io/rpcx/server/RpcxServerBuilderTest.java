package io.rpcx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.config.ServiceBinding;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * The builder is the server's only builder: a server not told otherwise runs with the defaults
 * its Javadoc states, and the configuration a builder makes is a copy, which later calls on the
 * builder leave alone.
 */
class RpcxServerBuilderTest {

  @Test
  void aServerNotToldOtherwiseRunsWithTheDocumentedDefaults() {
    ServerConfig config = RpcxServer.builder().config();
    assertEquals("0.0.0.0", config.bindAddress());
    assertEquals(0, config.port());
    assertNull(config.registrar());
    assertNull(config.advertisedHost());
    assertEquals(0, config.advertisedPort());
    assertEquals(Map.of(), config.registrationMetadata());
    assertEquals(List.of(), config.services());
    assertEquals(List.of(), config.scan().packages());
    assertNull(config.executor());
    assertFalse(config.direct());
    assertFalse(config.reflection());
    assertEquals(200, config.workerThreads());
    assertEquals(10_000, config.maxQueuedCalls());
    assertEquals(8 * 1024, config.maxMetadataBytes());
    assertEquals(RpcxServer.DEFAULT_SHUTDOWN_GRACE_PERIOD, config.shutdownGracePeriod());
    assertEquals(Duration.ofSeconds(10), config.shutdownGracePeriod());
    assertEquals(Duration.ofSeconds(10), config.prefaceTimeout());
    assertEquals(10_000, config.maxConnections());
    assertEquals(Duration.ofMinutes(10), config.idleTimeout());
    assertEquals(List.of(), config.interceptors());
    assertEquals(List.of(), config.refusalListeners());
    ConnectionSettings connection = config.connection();
    assertEquals(Runtime.getRuntime().availableProcessors(), connection.ioThreads());
    assertTrue(connection.nativeTransport());
    assertEquals(RpcxServer.DEFAULT_MAX_FRAME_SIZE, connection.maxFrameSize());
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
    Executor executor = Runnable::run;
    ExceptionLogging declared = ExceptionLogging.off();
    ExceptionLogging other = ExceptionLogging.off();
    ServerConfig config =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(9000)
            .advertise("orders.internal", 9100)
            .executor(executor)
            .reflection(true)
            .workerThreads(3)
            .maxQueuedCalls(4)
            .maxMetadataBytes(5)
            .shutdownGracePeriod(Duration.ofSeconds(6))
            .prefaceTimeout(Duration.ofSeconds(7))
            .maxConnections(8)
            .idleTimeout(Duration.ofSeconds(9))
            .exceptionLogging(declared, other)
            .scan("com.example")
            .ioThreads(2)
            .nativeTransport(false)
            .maxFrameSize(2048)
            .maxNestingDepth(5)
            .maxConcurrentCallsPerConnection(6)
            .maxBufferedInboundBytes(7_000_000)
            .maxStreamWindow(8)
            .maxStreamBufferedBytes(9_000)
            .config();
    assertEquals("127.0.0.1", config.bindAddress());
    assertEquals(9000, config.port());
    assertEquals("orders.internal", config.advertisedHost());
    assertEquals(9100, config.advertisedPort());
    assertSame(executor, config.executor());
    assertFalse(config.virtualThreads());
    assertTrue(config.reflection());
    assertEquals(3, config.workerThreads());
    assertEquals(4, config.maxQueuedCalls());
    assertEquals(5, config.maxMetadataBytes());
    assertEquals(Duration.ofSeconds(6), config.shutdownGracePeriod());
    assertEquals(Duration.ofSeconds(7), config.prefaceTimeout());
    assertEquals(8, config.maxConnections());
    assertEquals(Duration.ofSeconds(9), config.idleTimeout());
    assertSame(declared, config.declaredExceptionLogging());
    assertSame(other, config.otherExceptionLogging());
    assertEquals(List.of("com.example"), config.scan().packages());
    assertEquals(
        new ConnectionSettings(2, false, 2048, 5, 6, 7_000_000, 8, 9_000, null, null),
        config.connection());
  }

  @Test
  void theConfigurationIsACopyThatLaterCallsOnTheBuilderLeaveAlone() {
    ServerInterceptor first = (call, next) -> next.proceed();
    ServerInterceptor second = (call, next) -> next.proceed();
    RefusalListener listener = call -> {};
    Object implementation = new Object();
    RpcxServer.Builder builder =
        RpcxServer.builder()
            .registrationMetadata("zone", "eu-1")
            .intercept(first)
            .refusalListener(listener)
            .service("first", implementation)
            .port(9000);
    ServerConfig before = builder.config();
    builder
        .registrationMetadata("zone", "eu-2")
        .registrationMetadata("version", "2")
        .intercept(second)
        .refusalListener(listener)
        .service("second", implementation)
        .port(9001);
    ServerConfig after = builder.config();

    assertEquals(Map.of("zone", "eu-1"), before.registrationMetadata());
    assertEquals(List.of(first), before.interceptors());
    assertEquals(List.of(listener), before.refusalListeners());
    assertEquals(List.of("first"), before.services().stream().map(ServiceBinding::name).toList());
    assertEquals(9000, before.port());

    assertEquals(
        List.of("zone", "version"), List.copyOf(after.registrationMetadata().keySet()),
        "in the order given");
    assertEquals("eu-2", after.registrationMetadata().get("zone"));
    assertEquals(List.of(first, second), after.interceptors());
    assertEquals(List.of(listener, listener), after.refusalListeners());
    assertEquals(
        List.of("first", "second"), after.services().stream().map(ServiceBinding::name).toList());
    assertEquals(9001, after.port());

    assertThrows(
        UnsupportedOperationException.class, () -> after.registrationMetadata().put("k", "v"));
    assertThrows(UnsupportedOperationException.class, () -> after.services().clear());
  }
}
