package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.rpcx.core.UnsupportedRuntimeException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.spring.boot.autoconfigure.greeter.ClientApp;
import io.rpcx.spring.boot.autoconfigure.greeter.ServerApp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * A bad {@code rpcx.*} value fails the start with Spring Boot's failure report, naming the
 * property, its value, where it was set, and what RPCX accepts; so do versions RPCX cannot run
 * with. The reports are captured from the log, where Spring Boot writes them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailureReportsTest {

  @Test
  void aServerSettingTheBuilderRefuses() {
    assertReport(
        start(ServerApp.class, "--rpcx.server.worker-threads=0"),
        "The property rpcx.server.worker-threads has the value \"0\" (from \"rpcx.server.worker-threads\""
            + " from property source \"commandLineArgs\"), which RPCX does not accept.",
        "Set rpcx.server.worker-threads to a value RPCX accepts: >= 1.");
  }

  @Test
  void aStreamWindowTheBuilderRefuses() {
    assertReport(
        start(ServerApp.class, "--rpcx.server.max-stream-window=0"),
        "The property rpcx.server.max-stream-window has the value \"0\" (from"
            + " \"rpcx.server.max-stream-window\" from property source \"commandLineArgs\"), which"
            + " RPCX does not accept.",
        "Set rpcx.server.max-stream-window to a value RPCX accepts: >= 1.");
    assertReport(
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
  void aPortOutOfRange() {
    assertReport(
        start(ServerApp.class, "--rpcx.server.port=70000"),
        "The property rpcx.server.port has the value \"70000\" (from \"rpcx.server.port\" from"
            + " property source \"commandLineArgs\"), which RPCX does not accept.",
        "Set rpcx.server.port to a value RPCX accepts: 0-65535.");
  }

  @Test
  void aTargetWithoutAPort() {
    assertReport(
        start(ClientApp.class, "--rpcx.client.target=localhost"),
        "The property rpcx.client.target has the value \"localhost\" (from \"rpcx.client.target\""
            + " from property source \"commandLineArgs\"), which RPCX does not accept.",
        "Set rpcx.client.target to a value RPCX accepts: host:port.");
  }

  @Test
  void aTargetWithAProtocolRpcxDoesNotSpeak() {
    assertReport(
        start(ClientApp.class, "--rpcx.client.target=http://localhost:8080"),
        "The property rpcx.client.target has the value \"http://localhost:8080\" (from"
            + " \"rpcx.client.target\" from property source \"commandLineArgs\"), which RPCX does"
            + " not accept.",
        "Set rpcx.client.target to a value RPCX accepts: host:port, rpcx://host:port or"
            + " grpc://host:port.");
  }

  @Test
  void targetsOfAServiceNoInterfaceCalls() {
    assertReport(
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
  void aServiceWithoutServers() {
    assertReport(
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
  void aFrameLimitBeyondWhatAnIntHolds() {
    assertReport(
        start(ClientApp.class, "--rpcx.client.target=127.0.0.1:9000", "--rpcx.client.max-frame-size=3GB"),
        "The property rpcx.client.max-frame-size has the value \"3GB\" (from"
            + " \"rpcx.client.max-frame-size\" from property source \"commandLineArgs\"), which RPCX"
            + " does not accept.",
        "Set rpcx.client.max-frame-size to a value RPCX accepts: 0B to 2147483647B.");
  }

  @Test
  void aDurationIsEchoedAsItWasWrittenNotAsJavaPrintsIt() {
    assertReport(
        start(ClientApp.class, "--rpcx.client.target=127.0.0.1:9000", "--rpcx.client.default-timeout=-1s"),
        "The property rpcx.client.default-timeout has the value \"-1s\" (from"
            + " \"rpcx.client.default-timeout\" from property source \"commandLineArgs\"), which RPCX"
            + " does not accept.",
        "Set rpcx.client.default-timeout to a value RPCX accepts: > 0.");
  }

  @Test
  void anSslBundleThatIsNotConfigured() {
    assertReport(
        start(ServerApp.class, "--rpcx.server.ssl.bundle=missing"),
        "The property rpcx.server.ssl.bundle has the value \"missing\" (from"
            + " \"rpcx.server.ssl.bundle\" from property source \"commandLineArgs\"), which RPCX"
            + " does not accept.",
        "Set rpcx.server.ssl.bundle to a value RPCX accepts: the name of an SSL bundle configured"
            + " under spring.ssl.bundle.jks or spring.ssl.bundle.pem.");
  }

  @Test
  void aTargetBesideZooKeeper() {
    // rpcx.zookeeper needs a ZooKeeper only when it registers or subscribes: the check comes first
    assertReport(
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
  void httpWithoutRpcxHttpOnTheClassPath() {
    assertReport(
        start(
            new FilteredClassLoader("io.rpcx.http."),
            ServerApp.class,
            "--rpcx.server.port=0",
            "--rpcx.server.http.enabled=true"),
        "rpcx.server.http.enabled is true, but io.rpcx:rpcx-http, which serves HTTP, is not on the"
            + " class path.",
        "Add the dependency io.rpcx:rpcx-http (rpcx-bom manages its version), or set"
            + " rpcx.server.http.enabled=false.");
  }

  @Test
  void aConsolePathRpcxHttpRefuses() {
    assertReport(
        start(
            ServerApp.class,
            "--rpcx.server.port=0",
            "--rpcx.server.http.enabled=true",
            "--rpcx.server.http.console-path=console"),
        "The property rpcx.server.http.console-path has the value \"console\" (from"
            + " \"rpcx.server.http.console-path\" from property source \"commandLineArgs\"), which"
            + " RPCX does not accept.",
        "Set rpcx.server.http.console-path to a value RPCX accepts: a path such as / or /console/"
            + " (letters, digits, - _ .).");
  }

  @Test
  void theOpenApiDocumentWithoutReflection() {
    assertReport(
        start(
            ServerApp.class,
            "--rpcx.server.port=0",
            "--rpcx.server.http.enabled=true",
            "--rpcx.server.http.open-api=true"),
        "rpcx.server.http.open-api is true, but rpcx.server.reflection is not. The OpenAPI document"
            + " shows the services' shape only to callers the server lets call its reflection"
            + " service (rpcx.reflection.v1.Reflection), which it publishes only with"
            + " rpcx.server.reflection=true.",
        "Set rpcx.server.reflection=true (rpcx.server.bearer-tokens, if set, then guard the OpenAPI"
            + " document too), or set rpcx.server.http.open-api=false.");
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

  /** A start that failed, and what it logged. */
  private record Failed(Throwable failure, List<String> warnings, List<String> errors) {}

  private static Failed start(Class<?> application, String... arguments) {
    return start(FailureReportsTest.class.getClassLoader(), application, arguments);
  }

  /** A start whose application loads its classes from {@code classLoader}. */
  private static Failed start(ClassLoader classLoader, Class<?> application, String... arguments) {
    try (LogCapture logs = LogCapture.of("org.springframework", "io.rpcx")) {
      Throwable failure =
          assertThrows(
              Throwable.class,
              () ->
                  new SpringApplicationBuilder(application)
                      .resourceLoader(new DefaultResourceLoader(classLoader))
                      .web(WebApplicationType.NONE)
                      .run(arguments)
                      .close());
      List<String> warnings = new ArrayList<>();
      List<String> errors = new ArrayList<>();
      for (ILoggingEvent event : logs.events()) {
        if (event.getLevel() == Level.ERROR) {
          errors.add(event.getFormattedMessage());
        } else if (event.getLevel() == Level.WARN) {
          warnings.add(event.getFormattedMessage());
        }
      }
      return new Failed(failure, warnings, errors);
    }
  }

  /**
   * Spring Boot logged the report with exactly this description and action, and nothing else but
   * the context's note that it cancelled its start.
   */
  private static void assertReport(Failed failed, String description, String action) {
    String report =
        "Description:" + System.lineSeparator() + System.lineSeparator() + description
            + System.lineSeparator() + System.lineSeparator() + "Action:" + System.lineSeparator()
            + System.lineSeparator() + action + System.lineSeparator();
    assertEquals(1, failed.errors().size(), () -> "one report after " + failed);
    assertTrue(
        failed.errors().get(0).contains("APPLICATION FAILED TO START")
            && failed.errors().get(0).contains(report),
        () -> "expected the report\n" + report + "\nafter " + failed.failure() + "\nin\n"
            + failed.errors().get(0));
    assertEquals(1, failed.warnings().size(), failed::toString);
    assertTrue(
        failed.warnings().get(0).startsWith(
            "Exception encountered during context initialization - cancelling refresh attempt: "),
        failed::toString);
  }
}
