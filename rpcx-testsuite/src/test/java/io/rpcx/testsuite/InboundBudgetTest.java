package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.Preface;
import io.rpcx.core.internal.protocol.proto.GoAway;
import io.rpcx.core.internal.protocol.proto.StatusCode;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bytes held in frames still arriving are bounded over all connections, on the server and on
 * the client: a peer that parks a large incomplete frame while the budget is used up is closed and
 * told why. (LowMemoryBudgetTest runs the same against 100 peers in a JVM of 256 MiB.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InboundBudgetTest {
  /**
   * What this class's tests may log: the connections closed when the budget is spent.
   */
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
          "WARN Closing connection (from /127\\.0\\.0\\.1|to 127\\.0\\.0\\.1):\\d+: the \\d+"
              + " bytes this (server|client) holds for incoming frames are used up, and this connection held \\d+ bytes of an incomplete frame for \\d+ ms");
    } finally {
      logs.close();
    }
  }

  private static final int MIB = 1024 * 1024;

  @Test
  void aServerClosesAPeerParkingAnIncompleteFrameOverItsBudgetAndServesTheOthers()
      throws Exception {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl())
            .maxBufferedInboundBytes(MIB).build().start();
    try (Bystander bystander = new Bystander(server.port());
        RawConnection raw = new RawConnection(server.port()).handshake()) {
      raw.send(new byte[] {0, 0x40, 0, 2, FrameType.REQUEST, 0}); // 4 MiB follow
      raw.send(new byte[2 * MIB]);
      RawConnection.Frame goAway = raw.readFrame();
      assertEquals(FrameType.GOAWAY, goAway.type);
      GoAway parsed = GoAway.parseFrom(goAway.payload);
      assertEquals(StatusCode.RESOURCE_EXHAUSTED, parsed.getCode());
      assertTrue(
          parsed.getMessage().matches(
              "the 1048576 bytes this server holds for incoming frames are used up, and this"
                  + " connection held \\d+ bytes of an incomplete frame for \\d+ ms"),
          parsed.getMessage());
      assertTrue(raw.closedByServer());
      bystander.awaitProgress();
      assertEquals(0, bystander.errors());
    } finally {
      server.stop();
    }
  }

  @Test
  void aClientClosesAServerParkingAnIncompleteReplyOverItsBudget() throws Exception {
    try (ServerSocket fake = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        RpcxClient client =
            RpcxClient.builder().target("127.0.0.1", fake.getLocalPort())
                .maxBufferedInboundBytes(MIB).defaultTimeout(Duration.ofSeconds(30)).build()) {
      CompletableFuture<String> call =
          CompletableFuture.supplyAsync(
              () -> client.create(EchoService.class).echo("hi"), ThreadPerTask.EXECUTOR);
      try (Socket socket = fake.accept()) {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        in.readFully(new byte[Preface.LENGTH]);
        out.write(Preface.bytes());
        in.readFully(new byte[in.readInt()]); // the request
        out.write(new byte[] {0, 0x40, 0, 2, FrameType.REPLY, 0}); // 4 MiB follow
        out.write(new byte[2 * MIB]);
        out.flush();
        java.util.concurrent.ExecutionException e =
            assertThrows(
                java.util.concurrent.ExecutionException.class,
                () -> call.get(20, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof ResourceExhaustedException, String.valueOf(e.getCause()));
        assertTrue(
            e.getCause().getMessage().matches(
                "connection to 127.0.0.1:\\d+ closed while echo/echo was in flight: the connection"
                    + " to 127.0.0.1:\\d+ was closed: the 1048576 bytes this client holds for"
                    + " incoming frames are used up, and this connection held \\d+ bytes of an"
                    + " incomplete frame for \\d+ ms"),
            e.getCause().getMessage());
      }
    }
  }
}
