package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.InvalidSettingException;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.util.unit.DataSize;

/**
 * A property whose value a builder refuses fails naming the property and its value as written,
 * and accepting what the builder's {@link InvalidSettingException} expected: the starter reads the
 * refusal, it never parses its message. The start-up reports users see are specified end to end
 * in {@link FailureReportsTest}.
 */
class PropertyRefusalsTest {

  /** A property set to {@code value}, which the builder refuses as {@code setting}. */
  private record Case(
      String property,
      Consumer<RpcxProperties> set,
      String value,
      String setting,
      Object refused,
      String expected) {}

  @TestFactory
  Stream<DynamicTest> theFailureCarriesWhatTheBuilderRefused() {
    return Stream.of(
            new Case(
                "rpcx.server.worker-threads",
                properties -> properties.getServer().setWorkerThreads(0),
                "0", "workerThreads", 0, ">= 1"),
            new Case(
                "rpcx.server.idle-timeout",
                properties -> properties.getServer().setIdleTimeout(Duration.ZERO),
                "PT0S", "idleTimeout", Duration.ZERO, "> 0"),
            new Case(
                "rpcx.server.blocked-event-loop-threshold",
                properties ->
                    properties.getServer().setBlockedEventLoopThreshold(Duration.ofSeconds(-1)),
                "PT-1S", "blockedEventLoopThreshold", Duration.ofSeconds(-1), ">= 0"),
            new Case(
                "rpcx.server.advertise-host",
                properties -> properties.getServer().setAdvertiseHost("a b"),
                "a b", "host", "a b", "a host name or an IP address"),
            new Case(
                "rpcx.server.max-stream-buffered-bytes",
                properties -> properties.getServer().setMaxStreamBufferedBytes(DataSize.ofBytes(0)),
                "0B", "maxStreamBufferedBytes", 0L, ">= 1"),
            new Case(
                "rpcx.server.http.port",
                properties -> {
                  properties.getServer().getHttp().setEnabled(true);
                  properties.getServer().getHttp().setPort(70000);
                },
                "70000", "httpPort", 70000, "0-65535"),
            new Case(
                "rpcx.server.http.console-path",
                properties -> {
                  properties.getServer().getHttp().setEnabled(true);
                  properties.getServer().getHttp().setConsolePath("/console");
                },
                "/console", "consolePath", "/console",
                "a path such as / or /console/ (letters, digits, - _ .)"),
            new Case(
                "rpcx.server.http.max-request-bytes",
                properties -> {
                  properties.getServer().getHttp().setEnabled(true);
                  properties.getServer().getHttp().setMaxRequestBytes(DataSize.ofBytes(0));
                },
                "0B", "maxRequestBytes", 0, "a number of bytes >= 1"),
            new Case(
                "rpcx.client.target",
                properties -> properties.getClient().setTarget("localhost"),
                "localhost", "endpoint", "localhost", "host:port"),
            new Case(
                "rpcx.client.metadata.Tenant",
                properties -> properties.getClient().setMetadata(Map.of("Tenant", "acme")),
                "acme", "metadata key", "Tenant", "lower-case, not empty"),
            new Case(
                "rpcx.client.connect-timeout",
                properties -> properties.getClient().setConnectTimeout(Duration.ofSeconds(-1)),
                "PT-1S", "connectTimeout", Duration.ofSeconds(-1), "> 0"),
            new Case(
                "rpcx.zookeeper.connect-string",
                properties -> properties.getZookeeper().setConnectString(" "),
                " ", "connectString", " ", "host:port,host:port,..."),
            new Case(
                "rpcx.zookeeper.base-path",
                properties -> {
                  properties.getZookeeper().setConnectString("127.0.0.1:1");
                  properties.getZookeeper().setBasePath("rpcx");
                },
                "rpcx", "basePath", "rpcx", "an absolute path such as /rpcx"))
        .map(each -> DynamicTest.dynamicTest(each.property(), () -> check(each)));
  }

  private static void check(Case each) {
    RpcxProperties properties = new RpcxProperties();
    each.set().accept(properties);
    InvalidRpcxPropertyException thrown =
        assertThrows(InvalidRpcxPropertyException.class, () -> apply(properties));
    InvalidSettingException refusal =
        assertInstanceOf(InvalidSettingException.class, thrown.getCause());
    FailureAnalysis analysis = new InvalidRpcxPropertyFailureAnalyzer(null).analyze(thrown);
    assertAll(
        () -> assertEquals(each.property(), thrown.property(), "property"),
        () -> assertEquals(each.value(), thrown.value(), "value as set"),
        () -> assertEquals(each.setting(), refusal.setting(), "setting refused"),
        () -> assertEquals(each.refused(), refusal.value(), "value refused"),
        () -> assertEquals(each.expected(), refusal.expected(), "expected"),
        () -> assertEquals(refusal.expected(), thrown.accepted(), "accepted"),
        () ->
            assertEquals(
                "Set " + each.property() + " to a value RPCX accepts: " + each.expected() + ".",
                analysis.getAction()));
  }

  /** Applies every group of properties as the auto-configurations do. */
  private static void apply(RpcxProperties properties) {
    new ServerProperties(properties.getServer(), null, PropertyRefusalsTest.class.getClassLoader()).applyTo(RpcxServer.builder());
    new ClientProperties(properties.getClient(), List.of(), null).applyTo(RpcxClient.builder());
    if (properties.getZookeeper().getConnectString() != null) {
      new RpcxZooKeeperAutoConfiguration().rpcxZooKeeperRegistry(properties).close();
    }
  }
}
