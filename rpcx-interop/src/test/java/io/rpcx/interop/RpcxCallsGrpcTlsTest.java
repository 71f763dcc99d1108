package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.UnavailableException;
import io.rpcx.server.RpcxServer;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.internal.testing.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS to gRPC servers: the client's {@link TlsConfig} with HTTP/2 negotiated by ALPN ({@code h2}),
 * to grpc-java's server and to RPCX's own (whose TLS offers {@code h2} beside RPCX); a server it
 * must not trust, or one that speaks no TLS, fails with a clear error and is never sent a call.
 */
@Timeout(60)
class RpcxCallsGrpcTlsTest {
  @TempDir static Path directory;

  static TestCertificates.Authority trusted;
  static TestCertificates.Leaf server;
  static TestCertificates.Leaf impostor;

  @BeforeAll
  static void makeCertificates() throws Exception {
    TestCertificates certificates = new TestCertificates(directory);
    trusted = certificates.authority("trusted");
    server = trusted.issue("server", "127.0.0.1", "localhost");
    impostor = certificates.authority("untrusted").issue("impostor", "127.0.0.1");
  }

  private static RpcxClient client(String target) throws Exception {
    return RpcxClient.builder()
        .targets(InteropService.class, target)
        .tls(TlsConfig.client().trust(trusted.certificateFile()).build())
        .maxAttempts(1)
        .defaultTimeout(Duration.ofSeconds(20))
        .build();
  }

  @Test
  void aGrpcJavaServerOverTlsWithAlpn() throws Exception {
    try (GrpcJavaServer grpc = GrpcJavaServer.startTls(server.certificateChain, server.privateKey);
        RpcxClient rpcx = client(grpc.target())) {
      InteropService interop = rpcx.create(InteropService.class);
      assertEquals("secret", interop.echo("secret"));
      assertEquals(Item.of(5), interop.echoItem(Item.of(5)));
      assertEquals(List.of("A", "B"), Received.all(interop.upper(Publishers.of(List.of("a", "b")))));
    }
  }

  @Test
  void rpcxsOwnGrpcSideOverTheSameTlsAsItsProtocol() throws Exception {
    RpcxServer rpcxServer =
        InteropServer.builder(0)
            .tls(TlsConfig.server(server.certificateChain, server.privateKey).build())
            .build()
            .start();
    try (RpcxClient overGrpc = client("grpc://127.0.0.1:" + rpcxServer.port());
        RpcxClient overRpcx = client("127.0.0.1:" + rpcxServer.port())) {
      assertEquals("both", overGrpc.create(InteropService.class).echo("both"));
      assertEquals("both", overRpcx.create(InteropService.class).echo("both"));
    } finally {
      rpcxServer.stop();
    }
  }

  @Test
  void aServerWithACertificateNotTrustedIsRefused() throws Exception {
    try (LogCapture logs = LogCapture.of("io.rpcx.client.internal.transport.GrpcClientHandler");
        GrpcJavaServer grpc = GrpcJavaServer.startTls(impostor.certificateChain, impostor.privateKey);
        RpcxClient rpcx = client(grpc.target())) {
      UnavailableException refused =
          assertThrows(
              UnavailableException.class, () -> rpcx.create(InteropService.class).echo("x"));
      assertTrue(refused.isSafeToRetry());
      assertTrue(
          refused.getMessage().contains("TLS with " + grpc.target() + " failed: "),
          refused.getMessage());
      List<String> warnings = logs.messages(Level.WARN);
      assertFalse(warnings.isEmpty());
      assertTrue(
          warnings.stream()
              .allMatch(line -> line.startsWith("Closing connection to " + grpc.target() + ": TLS failed: ")),
          warnings.toString());
      assertEquals(0, grpc.service.served.size());
    }
  }

  @Test
  void aServerWithoutTlsIsRefused() throws Exception {
    try (LogCapture logs = LogCapture.of("io.rpcx.client.internal.transport.GrpcClientHandler");
        GrpcJavaLogs peerLogs = new GrpcJavaLogs();
        GrpcJavaServer plain = GrpcJavaServer.start();
        RpcxClient rpcx = client(plain.target())) {
      UnavailableException refused =
          assertThrows(
              UnavailableException.class, () -> rpcx.create(InteropService.class).echo("x"));
      assertTrue(refused.isSafeToRetry());
      assertTrue(refused.getMessage().contains(plain.target()), refused.getMessage());
      assertEquals(0, plain.service.served.size());
      assertFalse(logs.warningsContaining("TLS failed").isEmpty(), logs.messages(Level.TRACE).toString());
      // The server's side of it: a TLS ClientHello is no HTTP/2 preface.
      assertTrue(
          peerLogs.awaitLine("HTTP/2 client preface string missing or corrupt"),
          peerLogs.messages().toString());
    }
  }
}
