package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.client.LoadBalancing;
import io.rpcx.client.RawCall;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.StaticDiscovery;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;
import io.rpcx.testing.Faults;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * Every builder refuses a value the same way, at once: an {@link InvalidSettingException} that
 * names the setting, the value given and what it accepts (which tools such as the Spring Boot
 * starter read instead of the message), with the message {@code "setting: value (expected:
 * what)"}.
 */
class SettingRefusalsTest {

  /** One refusal: what is called, and what the exception says. */
  private record Refusal(
      String call,
      Executable setter,
      String setting,
      Object value,
      String expected,
      String message) {}

  @TestFactory
  Stream<DynamicTest> eachBuilderNamesTheSettingTheValueAndWhatItAccepts() throws Exception {
    TlsConfig serverTls = TlsConfig.server(keyManager()).build();
    TlsConfig clientTls = TlsConfig.client().build();
    Path missing = Path.of("/no/such/ca.pem");
    Object implementation = new Object();
    return Stream.of(
            new Refusal(
                "RpcxClient.Builder.maxAttempts(0)",
                () -> RpcxClient.builder().maxAttempts(0),
                "maxAttempts", 0, ">= 1",
                "maxAttempts: 0 (expected: >= 1)"),
            new Refusal(
                "RpcxClient.Builder.defaultTimeout(0s)",
                () -> RpcxClient.builder().defaultTimeout(Duration.ZERO),
                "defaultTimeout", Duration.ZERO, "> 0",
                "defaultTimeout: PT0S (expected: > 0)"),
            new Refusal(
                "RpcxClient.Builder.reconnectBackoff(2s, 1s)",
                () -> RpcxClient.builder()
                    .reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)),
                "max", Duration.ofSeconds(1), ">= initial PT2S",
                "max: PT1S (expected: >= initial PT2S)"),
            new Refusal(
                "RpcxClient.Builder.retryBudget(NaN, 1)",
                () -> RpcxClient.builder().retryBudget(Double.NaN, 1),
                "ratio", Double.NaN, "0-1000",
                "ratio: NaN (expected: 0-1000)"),
            new Refusal(
                "RpcxClient.Builder.ejection(0, 1s, 2s)",
                () -> RpcxClient.builder()
                    .ejection(0, Duration.ofSeconds(1), Duration.ofSeconds(2)),
                "consecutiveFailures", 0, ">= 1",
                "consecutiveFailures: 0 (expected: >= 1)"),
            new Refusal(
                "RpcxClient.Builder.ejection(1, 2s, 1s)",
                () -> RpcxClient.builder()
                    .ejection(1, Duration.ofSeconds(2), Duration.ofSeconds(1)),
                "ejection backoff", List.of(2_000L, 1_000L), "1 <= initial <= max",
                "ejection backoff: 2000 ms to 1000 ms (expected: 1 <= initial <= max)"),
            new Refusal(
                "RpcxClient.Builder.zone(\" \")",
                () -> RpcxClient.builder().zone(" "),
                "zone", " ", "1-256 printable characters",
                "zone: ' ' (expected: 1-256 printable characters)"),
            new Refusal(
                "RpcxClient.Builder.maxFrameSize(1023)",
                () -> RpcxClient.builder().maxFrameSize(1023),
                "maxFrameSize", 1023, ">= 1024",
                "maxFrameSize: 1023 (expected: >= 1024)"),
            new Refusal(
                "RpcxClient.Builder.maxStreamBufferedBytes(-1)",
                () -> RpcxClient.builder().maxStreamBufferedBytes(-1),
                "maxStreamBufferedBytes", -1L, ">= 1",
                "maxStreamBufferedBytes: -1 (expected: >= 1)"),
            new Refusal(
                "RpcxClient.Builder.metadata(\"Tenant\", ...)",
                () -> RpcxClient.builder().metadata("Tenant", "acme"),
                "metadata key", "Tenant", "lower-case, not empty",
                "metadata key: 'Tenant' (expected: lower-case, not empty)"),
            new Refusal(
                "RpcxClient.Builder.target(\"localhost\", 0)",
                () -> RpcxClient.builder().target("localhost", 0),
                "port", 0, "1-65535",
                "port: 0 (expected: 1-65535)"),
            new Refusal(
                "RpcxClient.Builder.targets(type, \"localhost\")",
                () -> RpcxClient.builder().targets(Runnable.class, "localhost"),
                "endpoint", "localhost", "host:port",
                "endpoint: 'localhost' (expected: host:port)"),
            new Refusal(
                "RpcxClient.Builder.targets(type, List.of())",
                () -> RpcxClient.builder().targets(Runnable.class, List.of()),
                "targets of java.lang.Runnable", List.of(), "at least one",
                "targets of java.lang.Runnable: none (expected: at least one)"),
            new Refusal(
                "RpcxClient.Builder.tls(a server's)",
                () -> RpcxClient.builder().tls(serverTls),
                "tls", serverTls, "TlsConfig.client()",
                "tls: a server configuration (expected: TlsConfig.client())"),
            new Refusal(
                "RpcxClient.Builder.inProcess(\"a b\")",
                () -> RpcxClient.builder().inProcess("a b"),
                "inProcess name", "a b", "1 to 200 printable ASCII characters, no spaces",
                "inProcess name: 'a b' (expected: 1 to 200 printable ASCII characters, no spaces)"),
            new Refusal(
                "RpcxServer.Builder.workerThreads(0)",
                () -> RpcxServer.builder().workerThreads(0),
                "workerThreads", 0, ">= 1",
                "workerThreads: 0 (expected: >= 1)"),
            new Refusal(
                "RpcxServer.Builder.port(70000)",
                () -> RpcxServer.builder().port(70000),
                "port", 70000, "0-65535",
                "port: 70000 (expected: 0-65535)"),
            new Refusal(
                "RpcxServer.Builder.shutdownGracePeriod(-1s)",
                () -> RpcxServer.builder().shutdownGracePeriod(Duration.ofSeconds(-1)),
                "shutdownGracePeriod", Duration.ofSeconds(-1), ">= 0",
                "shutdownGracePeriod: PT-1S (expected: >= 0)"),
            new Refusal(
                "RpcxServer.Builder.maxStreamWindow(0)",
                () -> RpcxServer.builder().maxStreamWindow(0),
                "maxStreamWindow", 0, ">= 1",
                "maxStreamWindow: 0 (expected: >= 1)"),
            new Refusal(
                "RpcxServer.Builder.advertise(\"a b\")",
                () -> RpcxServer.builder().advertise("a b"),
                "host", "a b", "a host name or an IP address",
                "host: 'a b' has character 32 at 1 (expected: a host name or an IP address)"),
            new Refusal(
                "RpcxServer.Builder.registrationMetadata(\"Zone\", ...)",
                () -> RpcxServer.builder().registrationMetadata("Zone", "eu-1"),
                "metadata key", "Zone", "characters a-z 0-9 . _ -",
                "metadata key: 'Zone' (expected: characters a-z 0-9 . _ -)"),
            new Refusal(
                "RpcxServer.Builder.registrationMetadata(INSTANCE_KEY, ...)",
                () -> RpcxServer.builder().registrationMetadata(RpcxServer.INSTANCE_KEY, "mine"),
                "registrationMetadata", RpcxServer.INSTANCE_KEY,
                "a key other than 'instance', which the server sets to a new id at each start",
                "registrationMetadata: 'instance' (expected: a key other than 'instance', which"
                    + " the server sets to a new id at each start)"),
            new Refusal(
                "RpcxServer.Builder.service(name, implementation, class)",
                () -> RpcxServer.builder().service("greeter", implementation, Object.class),
                "serviceInterfaces of 'greeter'", List.of(), "at least one",
                "serviceInterfaces of 'greeter': none given (expected: at least one)"),
            new Refusal(
                "RpcxServer.Builder.tls(a client's)",
                () -> RpcxServer.builder().tls(clientTls),
                "tls", clientTls, "TlsConfig.server(...)",
                "tls: a client configuration (expected: TlsConfig.server(...))"),
            new Refusal(
                "TlsConfig.Builder.protocols()",
                () -> TlsConfig.client().protocols(),
                "protocols", List.of(), "at least one",
                "protocols: none given (expected: at least one)"),
            new Refusal(
                "TlsConfig.Builder.trust(a missing file)",
                () -> TlsConfig.client().trust(missing),
                "trustedCertificates", missing, "a readable file",
                "trustedCertificates: /no/such/ca.pem (expected: a readable file)"),
            new Refusal(
                "StaticDiscovery.Builder.service(name, \"h:http\")",
                () -> StaticDiscovery.builder().service("orders", "h:http"),
                "endpoint", "h:http", "1-65535",
                "endpoint: 'h:http' has port 'http' (expected: 1-65535)"),
            new Refusal(
                "ServiceEndpoint.of(\"\", 1)",
                () -> ServiceEndpoint.of("", 1),
                "host", "", "1-253",
                "host: 0 characters (expected: 1-253)"),
            new Refusal(
                "ZooKeeperRegistry.Builder.connectString(\" \")",
                () -> ZooKeeperRegistry.builder().connectString(" "),
                "connectString", " ", "host:port,host:port,...",
                "connectString: ' ' (expected: host:port,host:port,...)"),
            new Refusal(
                "ZooKeeperRegistry.Builder.basePath(\"rpcx\")",
                () -> ZooKeeperRegistry.builder().basePath("rpcx"),
                "basePath", "rpcx", "an absolute path such as /rpcx",
                "basePath: 'rpcx' (expected: an absolute path such as /rpcx)"),
            new Refusal(
                "ZooKeeperRegistry.Builder.sessionTimeout(0s)",
                () -> ZooKeeperRegistry.builder().sessionTimeout(Duration.ZERO),
                "sessionTimeout", Duration.ZERO, "> 0",
                "sessionTimeout: PT0S (expected: > 0)"),
            new Refusal(
                "RawCall.builder(\" \", ...)",
                () -> RawCall.builder(" ", "echo"),
                "service", " ", "not blank",
                "service: ' ' (expected: not blank)"),
            new Refusal(
                "RawCall.Builder.timeout(0s)",
                () -> RawCall.builder("example.Echo", "echo").timeout(Duration.ZERO),
                "timeout", Duration.ZERO, "> 0",
                "timeout: PT0S (expected: > 0)"),
            new Refusal(
                "Faults.Builder.latency(calls, 0s)",
                () -> Faults.builder().latency("greeter/greet", Duration.ZERO),
                "latency of greeter/greet", Duration.ZERO, "> 0",
                "latency of greeter/greet: PT0S (expected: > 0)"),
            new Refusal(
                "Faults.Builder.dropReplies(\"greet\")",
                () -> Faults.builder().dropReplies("greet"),
                "calls", "greet",
                "\"service/method\", as in \"orders/loadOrder\", \"service/*\" or \"*\"",
                "calls: 'greet' (expected: \"service/method\", as in \"orders/loadOrder\","
                    + " \"service/*\" or \"*\")"),
            new Refusal(
                "Faults.Builder.answer(calls, OK, ...)",
                () -> Faults.builder().answer("*", StatusCode.OK, "fine"),
                "answer for *", StatusCode.OK, "another StatusCode",
                "answer for *: status OK is no error (expected: another StatusCode)"),
            new Refusal(
                "Faults.Builder.resetConnectionAfterCalls(-1)",
                () -> Faults.builder().resetConnectionAfterCalls(-1),
                "resetConnectionAfterCalls", -1, ">= 0",
                "resetConnectionAfterCalls: -1 (expected: >= 0)"))
        .map(
            refusal ->
                DynamicTest.dynamicTest(
                    refusal.call(),
                    () -> {
                      InvalidSettingException thrown =
                          assertThrows(InvalidSettingException.class, refusal.setter());
                      assertAll(
                          () -> assertEquals(refusal.setting(), thrown.setting(), "setting"),
                          () -> assertEquals(refusal.value(), thrown.value(), "value"),
                          () -> assertEquals(refusal.expected(), thrown.expected(), "expected"),
                          () -> assertEquals(refusal.message(), thrown.getMessage(), "message"));
                    }));
  }

  @Test
  void aRefusalIsAnIllegalArgumentExceptionAsBefore() {
    IllegalArgumentException thrown =
        assertThrows(IllegalArgumentException.class, () -> RpcxServer.builder().maxConnections(0));
    assertEquals(InvalidSettingException.class, thrown.getClass());
  }

  @Test
  void aValueThatOnlyConflictsWithAnotherSettingIsRefusedByBuildNamingBoth() {
    RpcxClient.Builder builder =
        RpcxClient.builder()
            .loadBalancing(LoadBalancing.ROUND_ROBIN)
            .target("127.0.0.1", 9000)
            .discovery(StaticDiscovery.builder().build());
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, builder::build);
    assertEquals(IllegalArgumentException.class, thrown.getClass());
    assertEquals(
        "both target(host, port) and discovery(...) are set: choose one (targets of single"
            + " interfaces may be combined with discovery)",
        thrown.getMessage());
  }

  private static KeyManagerFactory keyManager() throws NoSuchAlgorithmException {
    // never initialized: a server's TlsConfig needs a key manager, these refusals never use it
    return KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
  }
}
