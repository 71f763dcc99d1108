package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import interop.InteropGrpc;
import interop.InteropOuterClass.EchoRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.rpcx.internal.testing.LogCapture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A gRPC connection is counted as RPCX's are: among the handshaking connections until it sent
 * HTTP/2's preface, then against {@code maxConnections}; the preface timeout does not cut it once
 * it spoke.
 */
@Timeout(60)
class GrpcConnectionsTest {

  private static EchoRequest text(String value) {
    return EchoRequest.newBuilder().setText(value).build();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(condition.getAsBoolean(), "not reached within 10 s");
  }

  @Test
  void aConnectionThatSpokeHttp2IsOpenNotHandshakingAndOutlivesThePrefaceTimeout()
      throws Exception {
    try (GrpcPeer peer =
        GrpcPeer.start(InteropServer.builder(0).prefaceTimeout(Duration.ofMillis(200)))) {
      InteropGrpc.InteropBlockingStub stub =
          InteropGrpc.newBlockingStub(peer.channel).withDeadlineAfter(10, TimeUnit.SECONDS);
      assertEquals("a", stub.echo(text("a")).getValue());
      assertEquals(1, peer.server.stats().openConnections());
      assertEquals(0, peer.server.stats().handshakingConnections());

      Thread.sleep(600); // three preface timeouts: a connection still counted as handshaking closes
      assertEquals("b", stub.echo(text("b")).getValue());
      assertEquals(1, peer.server.stats().openConnections(), "the connection was not replaced");
      assertEquals(0, peer.server.stats().refusedConnections());
    }
  }

  @Test
  void aGrpcConnectionOverMaxConnectionsIsToldWhyAndCounted() throws Exception {
    try (LogCapture logs = LogCapture.of("io.rpcx.server");
        GrpcPeer first = GrpcPeer.start(InteropServer.builder(0).maxConnections(1))) {
      InteropGrpc.InteropBlockingStub stub =
          InteropGrpc.newBlockingStub(first.channel).withDeadlineAfter(10, TimeUnit.SECONDS);
      assertEquals("a", stub.echo(text("a")).getValue());
      try (GrpcPeer second = GrpcPeer.sharing(first.server)) {
        StatusRuntimeException refused =
            assertThrows(
                StatusRuntimeException.class,
                () ->
                    InteropGrpc.newBlockingStub(second.channel)
                        .withDeadlineAfter(10, TimeUnit.SECONDS)
                        .echo(text("b")));
        assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode(), refused.toString());
        // grpc-java reconnects in the background, and is refused again: at least once
        await(() -> first.server.stats().refusedConnections() >= 1);
        assertTrue(
            logs.awaitLine(
                Level.WARN,
                "WARN Refusing connection from /127\\.0\\.0\\.1:\\d+: 1 connections are open"
                    + " \\(limit maxConnections 1\\)"),
            logs.lines(Level.WARN).toString());
      }
      assertEquals("c", stub.echo(text("c")).getValue(), "the first connection is unharmed");
    }
  }
}
