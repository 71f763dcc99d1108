package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.core.UnsupportedRuntimeException;
import io.rpcx.spring.boot.autoconfigure.greeter.ClientApp;
import io.rpcx.spring.boot.autoconfigure.greeter.ServerApp;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A bad {@code rpcx.*} value fails the start with Spring Boot's failure report, naming the
 * property, its value, where it was set, and what RPCX accepts; so do versions RPCX cannot run
 * with.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailureReportsTest {

  @Test
  void aServerSettingTheBuilderRefuses(CapturedOutput output) {
    assertReport(
        output,
        start(ServerApp.class, "--rpcx.server.worker-threads=0"),
        "The property rpcx.server.worker-threads has the value \"0\" (from \"rpcx.server.worker-threads\""
            + " from property source \"commandLineArgs\"), which RPCX does not accept.",
        "Set rpcx.server.worker-threads to a value RPCX accepts: >= 1.");
  }

  @Test
  void aStreamWindowTheBuilderRefuses(CapturedOutput output) {
    assertReport(
        output,
        start(ServerApp.class, "--rpcx.server.max-stream-window=0"),
        "The property rpcx.server.max-stream-window has the value \"0\" (from"
            + " \"rpcx.server.max-stream-window\" from property source \"commandLineArgs\"), which"
            + " RPCX does not accept.",
        "Set rpcx.server.max-stream-window to a value RPCX accepts: >= 1.");
    assertReport(
        output,
        start(
            ClientApp.class,
            "--rpcx.client.target=127.0.0.1:9000",
            "--rpcx.client.max-stream-buffered-bytes=0B"),
        "The property rpcx.client.max-stream-buffered-bytes has the value \"0B\" (from"
            + " \"rpcx.client.max-stream-buffered-bytes\" from property source \"commandLineArgs\"),"
            + " which RPCX does not accept.",
        "Set rpcx.client.max-stream-buffered-bytes to a value RPCX accepts: >= 1.");
  }

  @Test
  void aPortOutOfRange(CapturedOutput output) {
    assertReport(
        output,
        start(ServerApp.class, "--rpcx.server.port=70000"),
        "The property rpcx.server.port has the value \"70000\" (from \"rpcx.server.port\" from"
            + " property source \"commandLineArgs\"), which RPCX does not accept.",
        "Set rpcx.server.port to a value RPCX accepts: 0-65535.");
  }

  @Test
  void aTargetWithoutAPort(CapturedOutput output) {
    assertReport(
        output,
        start(ClientApp.class, "--rpcx.client.target=localhost"),
        "The property rpcx.client.target has the value \"localhost\" (from \"rpcx.client.target\""
            + " from property source \"commandLineArgs\"), which RPCX does not accept.",
        "Set rpcx.client.target to a value RPCX accepts: host:port.");
  }

  @Test
  void targetsOfAServiceNoInterfaceCalls(CapturedOutput output) {
    assertReport(
        output,
        start(
            ClientApp.class,
            "--rpcx.client.target=127.0.0.1:9000",
            "--rpcx.client.services.orders.targets=127.0.0.1:9001"),
        "The properties rpcx.client.services.orders.* are for service 'orders', which no"
            + " @EnableRpcxClients interface calls.",
        "Name a service an @EnableRpcxClients interface calls (greeter), or register the"
            + " interface that calls 'orders'.");
  }

  @Test
  void aServiceWithoutServers(CapturedOutput output) {
    assertReport(
        output,
        start(ClientApp.class),
        "Service 'greeter' (io.rpcx.spring.boot.autoconfigure.greeter.Greeter) has no servers:"
            + " rpcx.client.services.greeter.targets, rpcx.client.target and"
            + " rpcx.zookeeper.connect-string are unset, and its @RPCXClient names no address and"
            + " port.",
        "Set rpcx.client.services.greeter.targets to its servers (each host:port), or"
            + " rpcx.client.target for every service, or rpcx.zookeeper.connect-string to find them"
            + " in ZooKeeper.");
  }

  @Test
  void aFrameLimitBeyondWhatAnIntHolds(CapturedOutput output) {
    assertReport(
        output,
        start(ClientApp.class, "--rpcx.client.target=127.0.0.1:9000", "--rpcx.client.max-frame-size=3GB"),
        "The property rpcx.client.max-frame-size has the value \"3GB\" (from"
            + " \"rpcx.client.max-frame-size\" from property source \"commandLineArgs\"), which RPCX"
            + " does not accept.",
        "Set rpcx.client.max-frame-size to a value RPCX accepts: 0B to 2147483647B.");
  }

  @Test
  void aDurationIsEchoedAsItWasWrittenNotAsJavaPrintsIt(CapturedOutput output) {
    assertReport(
        output,
        start(ClientApp.class, "--rpcx.client.target=127.0.0.1:9000", "--rpcx.client.default-timeout=-1s"),
        "The property rpcx.client.default-timeout has the value \"-1s\" (from"
            + " \"rpcx.client.default-timeout\" from property source \"commandLineArgs\"), which RPCX"
            + " does not accept.",
        "Set rpcx.client.default-timeout to a value RPCX accepts: > 0.");
  }

  @Test
  void anSslBundleThatIsNotConfigured(CapturedOutput output) {
    assertReport(
        output,
        start(ServerApp.class, "--rpcx.server.ssl.bundle=missing"),
        "The property rpcx.server.ssl.bundle has the value \"missing\" (from"
            + " \"rpcx.server.ssl.bundle\" from property source \"commandLineArgs\"), which RPCX"
            + " does not accept.",
        "Set rpcx.server.ssl.bundle to a value RPCX accepts: the name of an SSL bundle configured"
            + " under spring.ssl.bundle.jks or spring.ssl.bundle.pem.");
  }

  @Test
  void aTargetBesideZooKeeper(CapturedOutput output) {
    // rpcx.zookeeper needs a ZooKeeper only when it registers or subscribes: the check comes first
    assertReport(
        output,
        start(
            ClientApp.class,
            "--rpcx.client.target=127.0.0.1:9000",
            "--rpcx.zookeeper.connect-string=127.0.0.1:1"),
        "The property rpcx.client.target has the value \"127.0.0.1:9000\" (from"
            + " \"rpcx.client.target\" from property source \"commandLineArgs\"), which RPCX does"
            + " not accept.",
        "Set rpcx.client.target to a value RPCX accepts: no value while the servers are found by"
            + " zookeeper 127.0.0.1:1/rpcx (rpcx.client.services.<name>.targets may still pin one"
            + " service).");
  }

  @Test
  void aSpringBootThisStarterIsNotBuiltFor() {
    UnsupportedRuntimeException refusal =
        assertThrows(
            UnsupportedRuntimeException.class, () -> SpringBootVersionCheck.check("3.5.7"));
    FailureAnalysis analysis = new UnsupportedRuntimeFailureAnalyzer().analyze(refusal);
    assertEquals(
        "RPCX needs Spring Boot 4.0 or newer (up to 4.x); found 3.5.7 on the class path.",
        analysis.getDescription());
    assertEquals(
        "Use rpcx-spring-boot-starter with Spring Boot 4 (its spring-boot-starter-parent or"
            + " spring-boot-dependencies 4.x), or, on Spring Boot 3, build the RpcxClient and"
            + " RpcxServer beans yourself with rpcx-client and rpcx-server, setting the"
            + " netty.version property to a Netty 4.2 release.",
        analysis.getAction());
    SpringBootVersionCheck.check("4.0.7");
    SpringBootVersionCheck.check("4.1.2");
    SpringBootVersionCheck.check(null);
  }

  @Test
  void aNettyThisRpcxDoesNotRunWith() {
    // as RuntimeCompatibility words it for a class path whose Netty is 4.1
    UnsupportedRuntimeException refusal =
        new UnsupportedRuntimeException(
            "Netty",
            "netty-buffer 4.1.121.Final",
            "4.2.0.Final or newer (up to 4.2.x)",
            "Use one version in that range for every io.netty artifact.");
    FailureAnalysis analysis = new UnsupportedRuntimeFailureAnalyzer().analyze(refusal);
    assertEquals(
        "RPCX needs Netty 4.2.0.Final or newer (up to 4.2.x); found netty-buffer 4.1.121.Final on"
            + " the class path.",
        analysis.getDescription());
    assertEquals("Use one version in that range for every io.netty artifact.", analysis.getAction());
    assertEquals(refusal.getMessage(), analysis.getDescription() + " " + analysis.getAction());
  }

  private static Throwable start(Class<?> application, String... arguments) {
    return assertThrows(
        Throwable.class,
        () ->
            new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .run(arguments)
                .close());
  }

  /** Spring Boot printed the report with exactly this description and action. */
  private static void assertReport(
      CapturedOutput output, Throwable failure, String description, String action) {
    String report =
        "Description:" + System.lineSeparator() + System.lineSeparator() + description
            + System.lineSeparator() + System.lineSeparator() + "Action:" + System.lineSeparator()
            + System.lineSeparator() + action + System.lineSeparator();
    assertTrue(
        output.getOut().contains(report) || output.getErr().contains(report),
        () -> "expected the report\n" + report + "\nafter " + failure + "\nin\n" + output);
  }
}
