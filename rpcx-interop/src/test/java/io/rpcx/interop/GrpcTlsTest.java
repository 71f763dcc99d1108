package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import interop.InteropGrpc;
import interop.InteropOuterClass.EchoRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.TlsConfig;
import io.rpcx.server.RpcxServer;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.internal.testing.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One TLS port for both protocols: grpc-java negotiates {@code h2} by ALPN and calls the gRPC
 * side, an RPCX client (offering no ALPN protocol) calls RPCX's side, with the same certificate.
 */
@Timeout(60)
class GrpcTlsTest {
  @TempDir static Path directory;
  private static TestCertificates.Authority authority;
  private static RpcxServer server;

  @BeforeAll
  static void start() throws Exception {
    authority = new TestCertificates(directory).authority("interop-ca");
    TestCertificates.Leaf leaf = authority.issue("server", "127.0.0.1", "localhost");
    server =
        InteropServer.builder(0)
            .tls(TlsConfig.server(leaf.certificateChain, leaf.privateKey).build())
            .build()
            .start();
  }

  @AfterAll
  static void stop() {
    server.stop(Duration.ofSeconds(2));
  }

  @Test
  void grpcJavaNegotiatesH2ByAlpnAndCallsTheGrpcSide() throws Exception {
    ManagedChannel channel =
        NettyChannelBuilder.forAddress("127.0.0.1", server.port())
            .sslContext(GrpcSslContexts.forClient().trustManager(authority.certificateFile().toFile()).build())
            .build();
    try {
      assertEquals(
          "secure",
          InteropGrpc.newBlockingStub(channel)
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .echo(EchoRequest.newBuilder().setText("secure").build())
              .getValue());
    } finally {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anRpcxClientCallsTheSamePortOverTheSameTls() throws Exception {
    try (RpcxClient client =
        RpcxClient.builder()
            .target("127.0.0.1", server.port())
            .tls(TlsConfig.client().trust(authority.certificateFile()).build())
            .defaultTimeout(Duration.ofSeconds(10))
            .build()) {
      assertEquals("rpcx", client.create(InteropService.class).echo("rpcx"));
    }
  }

  @Test
  void aPlaintextGrpcClientOnTheTlsPortFailsWithoutHarmingTheServer() throws Exception {
    ManagedChannel plaintext =
        NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    try (LogCapture log = LogCapture.of("io.rpcx.server")) {
      StatusRuntimeException refused =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  InteropGrpc.newBlockingStub(plaintext)
                      .withDeadlineAfter(10, TimeUnit.SECONDS)
                      .echo(EchoRequest.newBuilder().setText("x").build()));
      assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode());
      GrpcStreamsTest.await(
          () -> !log.warningsContaining("TLS failed: the client speaks HTTP/2 without TLS").isEmpty(),
          "the server says what the client spoke");
    } finally {
      plaintext.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    grpcJavaNegotiatesH2ByAlpnAndCallsTheGrpcSide();
  }
}
