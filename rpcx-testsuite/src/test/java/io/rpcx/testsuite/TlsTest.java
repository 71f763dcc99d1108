package io.rpcx.testsuite;

import io.rpcx.internal.testing.TestCertificates;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS and mutual TLS: connections that should not be made fail on the client with a clear error,
 * and the server never dispatches a call from them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTest {
  /** What this class's tests may log: the connection each TLS mistake closes. */
  private static LogCapture logs;

  @BeforeAll
  static void captureLogs() {
    logs = LogCapture.warnings("io.rpcx");
  }

  @AfterAll
  static void onlyWhatTheTestsProvoked() {
    try {
      logs.assertOnly(
          Level.WARN,
          "WARN Closing connection (from /127\\.0\\.0\\.1|to 127\\.0\\.0\\.1):\\d+: TLS failed:"
              + " .*");
    } finally {
      logs.close();
    }
  }

  @TempDir static Path directory;

  static TestCertificates.Authority trusted;
  static TestCertificates.Authority untrusted;
  static TestCertificates.Leaf server;
  static TestCertificates.Leaf wrongName;
  static TestCertificates.Leaf untrustedServer;
  static TestCertificates.Leaf client;

  private final ControlledService.Impl service = new ControlledService.Impl();
  private RpcxServer running;

  @BeforeAll
  static void makeCertificates() throws Exception {
    TestCertificates certificates = new TestCertificates(directory);
    trusted = certificates.authority("trusted");
    untrusted = certificates.authority("untrusted");
    server = trusted.issue("server", "127.0.0.1", "localhost");
    wrongName = trusted.issue("elsewhere", "other.example");
    untrustedServer = untrusted.issue("impostor", "127.0.0.1");
    client = trusted.issue("client");
  }

  @AfterEach
  void stop() {
    if (running != null) {
      running.stop(Duration.ofSeconds(2));
    }
  }

  private int start(TestCertificates.Leaf leaf, boolean mutual) throws Exception {
    TlsConfig.Builder tls = TlsConfig.server(leaf.certificateChain, leaf.privateKey);
    if (mutual) {
      tls.trust(trusted.certificateFile()).requireClientCertificate();
    }
    running =
        RpcxServer.builder().bindAddress("127.0.0.1").service(service).tls(tls.build()).build().start();
    return running.port();
  }

  private static RpcxClient client(int port, TlsConfig tls) {
    RpcxClient.Builder builder =
        RpcxClient.builder().target("127.0.0.1", port).defaultTimeout(Duration.ofSeconds(10));
    if (tls != null) {
      builder.tls(tls);
    }
    return builder.build();
  }

  private static TlsConfig trustingClient() throws Exception {
    return TlsConfig.client().trust(trusted.certificateFile()).build();
  }

  private UnavailableException refused(int port, TlsConfig tls) {
    try (RpcxClient rpcx = client(port, tls)) {
      UnavailableException e =
          assertThrows(UnavailableException.class, () -> rpcx.create(ControlledService.class).started());
      assertEquals(0, service.startedCount(), "the server dispatched nothing");
      return e;
    }
  }

  @Test
  void callsWorkOverTls() throws Exception {
    int port = start(server, false);
    try (RpcxClient rpcx = client(port, trustingClient())) {
      assertEquals(0, rpcx.create(ControlledService.class).started());
      assertEquals("secure", rpcx.create(ControlledService.class).sleep("secure", 0));
    }
  }

  @Test
  void callsWorkOverMutualTls() throws Exception {
    int port = start(server, true);
    TlsConfig tls =
        TlsConfig.client()
            .trust(trusted.certificateFile())
            .keyPair(client.certificateChain, client.privateKey)
            .build();
    try (RpcxClient rpcx = client(port, tls)) {
      assertEquals("mutual", rpcx.create(ControlledService.class).sleep("mutual", 0));
    }
  }

  @Test
  void aPlaintextClientIsRejected() throws Exception {
    int port = start(server, false);
    UnavailableException e = refused(port, null);
    assertTrue(
        e.getMessage().contains(
                "127.0.0.1:" + port + " closed the connection before completing the RPCX handshake")
            && e.getMessage().endsWith("(is it an RPCX server? does it require TLS?)"),
        e.getMessage());
  }

  @Test
  void aServerCertificateFromAnUntrustedAuthorityIsRejected() throws Exception {
    int port = start(untrustedServer, false);
    UnavailableException e = refused(port, trustingClient());
    assertTrue(e.getMessage().contains("TLS with 127.0.0.1:" + port + " failed: "), e.getMessage());
    assertTrue(
        e.getMessage().contains("unable to find valid certification path to requested target"),
        e.getMessage());
  }

  @Test
  void aServerCertificateForAnotherHostIsRejected() throws Exception {
    int port = start(wrongName, false);
    UnavailableException e = refused(port, trustingClient());
    assertTrue(
        e.getMessage().contains("No subject alternative names matching IP address 127.0.0.1 found"),
        e.getMessage());
  }

  @Test
  void aClientWithoutACertificateIsRejectedByAMutualTlsServer() throws Exception {
    int port = start(server, true);
    UnavailableException e = refused(port, trustingClient());
    // The JDK's own words for the alert: "Received fatal alert: bad_certificate" on Java 17,
    // "(certificate_required) Received fatal alert: certificate_required" on newer ones.
    String alert =
        e.getMessage().contains("certificate_required")
            ? "(certificate_required) Received fatal alert: certificate_required"
            : "Received fatal alert: bad_certificate";
    assertEquals(
        "controlled/started was not sent to 127.0.0.1:" + port + ": TLS with 127.0.0.1:" + port
            + " failed: " + alert + " (the server requires a client certificate it trusts:"
            + " mutual TLS needs TlsConfig.client().keyPair(...))",
        e.getMessage());
  }
}
