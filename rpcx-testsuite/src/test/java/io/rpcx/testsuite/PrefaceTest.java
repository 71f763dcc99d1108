package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.proto.GoAway;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.testing.RpcxExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A connection that does not start with the RPCX preface is turned away at once, both ways, with a
 * log line that says what the peer sent.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PrefaceTest {

  @RegisterExtension
  static final RpcxExtension rpcx =
      RpcxExtension.withServices(new EchoService.Impl())
          .server(server -> server.prefaceTimeout(Duration.ofMillis(300)));

  private LogCapture logs;

  @BeforeEach
  void captureLogs() {
    logs = LogCapture.rpcx();
  }

  @AfterEach
  void releaseLogs() {
    logs.close();
  }

  /** The one warning the test provoked. */
  private String theWarning() throws InterruptedException {
    List<String> warnings = logs.await(Level.WARN, 1);
    assertEquals(1, warnings.size(), logs::all);
    return warnings.get(0);
  }

  @Test
  void aPeerSpeakingAnotherProtocolIsDisconnectedAndOthersAreServed() throws Exception {
    try (RawConnection http = new RawConnection(rpcx.port())) {
      http.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      assertTrue(http.closedByServer());
      assertEquals(
          "WARN Closing connection from " + http.localAddress() + ": invalid preface"
              + " 0x474554202f204854 ('GET / HT'): not an RPCX client",
          theWarning());
    }
    assertEquals("unaffected", rpcx.create(EchoService.class).echo("unaffected"));
  }

  @Test
  void aPeerThatSendsNothingIsDisconnectedAfterThePrefaceTimeout() throws Exception {
    try (RawConnection silent = new RawConnection(rpcx.port())) {
      long start = System.nanoTime();
      assertTrue(silent.closedByServer());
      long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(elapsed >= 250 && elapsed < 4_000, "closed after " + elapsed + " ms");
      assertEquals(
          "WARN Closing connection from " + silent.localAddress() + ": no RPCX or HTTP/2 preface"
              + " within 300 ms",
          theWarning());
    }
  }

  @Test
  void aTlsClientOnThisPortWithoutTlsIsToldApartFromOtherProtocols() throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, null, null);
    try (SSLSocket tls =
        (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", rpcx.port())) {
      tls.setSoTimeout(10_000);
      assertThrows(IOException.class, tls::startHandshake);
      String warning = theWarning();
      assertTrue(
          warning.matches(
              "WARN Closing connection from /127\\.0\\.0\\.1:" + tls.getLocalPort()
                  + ": invalid preface 0x16030[0-4][0-9a-f]{4}01[0-9a-f]{4}: a TLS ClientHello: the"
                  + " client uses TLS, and this server does not \\(give both sides a TlsConfig, or"
                  + " neither\\)"),
          warning);
    }
  }

  @Test
  void aClientOfAnotherProtocolVersionIsToldWhy() throws Exception {
    try (RawConnection future = new RawConnection(rpcx.port())) {
      future.send(new byte[] {'R', 'P', 'C', 'X', 0, 2, 0, 0});
      future.readPreface();
      RawConnection.Frame first = future.readFrame();
      assertEquals(FrameType.GOAWAY, first.type);
      assertEquals(
          "peer speaks RPCX protocol version 2, this server speaks version 1",
          GoAway.parseFrom(first.payload).getMessage());
      assertTrue(future.closedByServer());
      assertEquals(
          "WARN Closing connection from " + future.localAddress() + ": peer speaks RPCX protocol"
              + " version 2, this server speaks version 1",
          theWarning());
    }
  }

  @Test
  void aClientCallingSomethingThatIsNotAnRpcxServerFailsAtOnceWithTheReason() throws Exception {
    try (ServerSocket notRpcx = new ServerSocket(0)) {
      Thread httpServer =
          new Thread(
              () -> {
                try (Socket socket = notRpcx.accept()) {
                  OutputStream out = socket.getOutputStream();
                  out.write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                  out.flush();
                  Thread.sleep(10_000);
                } catch (Exception e) {
                  // the test is over
                }
              });
      httpServer.setDaemon(true);
      httpServer.start();
      try (RpcxClient client =
          RpcxClient.builder().target("127.0.0.1", notRpcx.getLocalPort()).build()) {
        long start = System.nanoTime();
        UnavailableException e =
            assertThrows(UnavailableException.class, () -> client.create(EchoService.class).echo("x"));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 3_000);
        assertTrue(
            e.getMessage().contains(
                "127.0.0.1:" + notRpcx.getLocalPort() + " is not a usable RPCX server: invalid"
                    + " preface 0x485454502f312e31 ('HTTP/1.1'): not an RPCX server"),
            e.getMessage());
        assertEquals(
            "WARN Closing connection to 127.0.0.1:" + notRpcx.getLocalPort() + ": invalid preface"
                + " 0x485454502f312e31 ('HTTP/1.1'): not an RPCX server",
            theWarning());
      }
      httpServer.interrupt();
    }
  }

  @Test
  void aServerThatAcceptsButNeverAnswersFailsCallsAfterTheConnectTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        RpcxClient client =
            RpcxClient.builder()
                .target("127.0.0.1", silent.getLocalPort())
                .connectTimeout(Duration.ofMillis(300))
                .defaultTimeout(Duration.ofSeconds(20))
                .build()) {
      long start = System.nanoTime();
      UnavailableException e =
          assertThrows(UnavailableException.class, () -> client.create(EchoService.class).echo("x"));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= 250 && millis < 5_000, "failed after " + millis + " ms");
      assertTrue(e.isSafeToRetry());
      assertEquals(
          "echo/echo was not sent to 127.0.0.1:" + silent.getLocalPort() + ": 127.0.0.1:"
              + silent.getLocalPort()
              + " accepted the connection but completed no RPCX handshake within 300 ms",
          e.getMessage());
      assertEquals(
          "WARN Closing connection to 127.0.0.1:" + silent.getLocalPort()
              + ": no RPCX handshake within 300 ms",
          theWarning());
    }
  }
}
