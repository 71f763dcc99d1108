package io.rpcx.interop;

import static io.rpcx.interop.ScriptedGrpcServer.dataFirst;
import static io.rpcx.interop.ScriptedGrpcServer.garbled;
import static io.rpcx.interop.ScriptedGrpcServer.gzipped;
import static io.rpcx.interop.ScriptedGrpcServer.headersOnly;
import static io.rpcx.interop.ScriptedGrpcServer.message;
import static io.rpcx.interop.ScriptedGrpcServer.messageDeclaring;
import static io.rpcx.interop.ScriptedGrpcServer.ok;
import static io.rpcx.interop.ScriptedGrpcServer.response;
import static io.rpcx.interop.ScriptedGrpcServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The connection to a gRPC server and the peers that break it: keepalive pings a server allows no
 * more often than its own limit, a peer that never speaks HTTP/2, and an HTTP/2 server whose
 * answers are not gRPC or break it, each failing only its own call, with a message naming what it
 * did, while the connection goes on.
 */
@Timeout(60)
class RpcxCallsGrpcConnectionTest {

  @Test
  void aGrpcServerThatGoesAwayAndIsGoneIsReportedUnreachableWithoutACall() throws Exception {
    GrpcJavaServer server = GrpcJavaServer.start();
    try (LogCapture logs = LogCapture.of("io.rpcx.client");
        RpcxClient rpcx =
            RpcxClient.builder().targets(InteropService.class, server.target()).build()) {
      assertEquals("hi", rpcx.create(InteropService.class).echo("hi"));
      String target = server.target();
      server.close(); // GOAWAY, and its port refuses from then on
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (state(rpcx) != EndpointStatus.State.UNREACHABLE && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertEquals(EndpointStatus.State.UNREACHABLE, state(rpcx), "no call made since");
      assertTrue(
          logs.awaitLine(
              Level.WARN, "WARN RPCX server \\Q" + target + "\\E is unreachable: .*"),
          logs.all());
    }
  }

  private static EndpointStatus.State state(RpcxClient rpcx) {
    return rpcx.endpoints(InteropService.class).get(0).state();
  }

  @Test
  void aServerThatFindsThePingsTooFrequentGetsThemLessOften() throws Exception {
    try (LogCapture logs = LogCapture.of("io.rpcx.client.internal.transport.GrpcConnection");
        GrpcJavaLogs peer = new GrpcJavaLogs();
        GrpcJavaServer server = GrpcJavaServer.start(); // grpc-java allows a ping per 5 minutes
        RpcxClient rpcx =
            RpcxClient.builder()
                .targets(InteropService.class, server.target())
                .keepAlive(Duration.ofMillis(100), Duration.ofSeconds(10))
                .defaultTimeout(Duration.ofSeconds(30))
                .build()) {
      InteropService interop = rpcx.create(InteropService.class);
      // Quiet for 3 s: pinged every 100 ms, the server closes the connection with GOAWAY.
      UnavailableException lost = assertThrows(UnavailableException.class, () -> interop.sleep(3_000));
      assertFalse(lost.isSafeToRetry(), "it was in flight");
      assertTrue(
          lost.getMessage().startsWith(
              "connection to " + server.target() + " closed while interop/sleep was in flight: the"
                  + " server at " + server.target() + " is going away: too_many_pings"),
          lost.getMessage());
      assertEquals(
          List.of(
              server.target() + " sent GOAWAY: too many pings; keepalive pings to it now go every"
                  + " 200 ms (set RpcxClient.Builder.keepAlive to at least the server's permitted"
                  + " interval)"),
          logs.messages(Level.WARN));
      assertEquals("again", interop.echo("again"), "a new connection");
      assertTrue(
          peer.messages().stream().allMatch(line -> line.contains("too_many_pings")),
          peer.messages().toString());
    }
  }

  @Test
  void aPeerThatNeverSpeaksHttp2IsGivenUpAfterTheConnectTimeout() throws Exception {
    try (LogCapture logs = LogCapture.of("io.rpcx.client.internal.transport.GrpcConnection");
        ServerSocket silent = new ServerSocket(0)) {
      CompletableFuture<Socket> accepted =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return silent.accept();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      String target = "grpc://127.0.0.1:" + silent.getLocalPort();
      try (RpcxClient rpcx =
          RpcxClient.builder()
              .targets(InteropService.class, target)
              .connectTimeout(Duration.ofMillis(300))
              .maxAttempts(1)
              .build()) {
        UnavailableException refused =
            assertThrows(
                UnavailableException.class, () -> rpcx.create(InteropService.class).echo("x"));
        assertTrue(refused.isSafeToRetry());
        assertEquals(
            "interop/echo was not sent to " + target + ": " + target + " accepted the connection"
                + " but sent no HTTP/2 SETTINGS within 300 ms (is it a gRPC server?)",
            refused.getMessage());
      } finally {
        accepted.join().close();
      }
      assertEquals(
          List.of(
              "Closing connection to " + target + ": no HTTP/2 SETTINGS within 300 ms"),
          logs.messages(Level.WARN));
    }
  }

  @Test
  void answersThatAreNotGrpcFailTheirCallOnlyNamingWhatCame() throws Exception {
    Map<String, ScriptedGrpcServer.Answer> answers =
        Map.of(
            "echo", headersOnly(new DefaultHttp2Headers().status("404")),
            "echoLong", headersOnly(new DefaultHttp2Headers().status("503")),
            "echoBoolean",
                headersOnly(new DefaultHttp2Headers().status("200").set("content-type", "text/html")),
            "echoBoxed", response(ok(), null, message(0)),
            "echoBytes", response(ok(), status(0), message(0), message(0)),
            "add", response(ok(), status(0)),
            "bytesOfSize", response(ok(), status(0), message(2, (byte) 1)),
            "metadata", response(ok(), status(0), message(0, (byte) 0x0a, (byte) 1, (byte) 'v')));
    try (ScriptedGrpcServer server = new ScriptedGrpcServer(answers);
        RpcxClient rpcx =
            RpcxClient.builder()
                .targets(InteropService.class, server.target())
                .maxAttempts(1)
                .build()) {
      InteropService interop = rpcx.create(InteropService.class);
      String at = "the server at " + server.target() + " ";
      Map<String, Function<InteropService, Object>> calls =
          Map.of(
              "echo", s -> s.echo("x"),
              "echoLong", s -> s.echoLong(1),
              "echoBoolean", s -> s.echoBoolean(true),
              "echoBoxed", s -> s.echoBoxed(1),
              "echoBytes", s -> s.echoBytes(new byte[1]),
              "add", s -> s.add(1, 2),
              "bytesOfSize", s -> s.bytesOfSize(1));
      assertFailure(NotFoundException.class, at + "answered with HTTP status 404 (is it a gRPC server?)", interop, calls.get("echo"));
      assertFailure(UnavailableException.class, at + "answered with HTTP status 503 (is it a gRPC server?)", interop, calls.get("echoLong"));
      assertFailure(
          RemoteFailureException.class,
          at + "answered with content-type 'text/html', not application/grpc (is it a gRPC server?)",
          interop, calls.get("echoBoolean"));
      assertFailure(
          InternalErrorException.class,
          at + "ended the stream without trailers (grpc-status) (interop/echoBoxed)",
          interop, calls.get("echoBoxed"));
      assertFailure(
          InternalErrorException.class,
          at + "sent more than one reply message for a call that takes one (interop/echoBytes)",
          interop, calls.get("echoBytes"));
      assertFailure(
          InternalErrorException.class,
          at + "ended interop/add with OK but no reply message (interop/add)",
          interop, calls.get("add"));
      assertFailure(
          InternalErrorException.class,
          at + "sent a malformed message: a message has the unknown flag 2 (interop/bytesOfSize)",
          interop, calls.get("bytesOfSize"));
      // The connection went on through all of them.
      assertEquals("v", interop.metadata("k"));
      assertEquals(1, rpcx.stats().openConnections());
    }
  }

  @Test
  void aCompressedReplyIsRead() throws Exception {
    try (ScriptedGrpcServer server =
            new ScriptedGrpcServer(
                Map.of(
                    "echo",
                    response(
                        ok().set("grpc-encoding", "gzip"),
                        status(0),
                        gzipped((byte) 0x0a, (byte) 2, (byte) 'h', (byte) 'i'))));
        RpcxClient rpcx = RpcxClient.builder().targets(InteropService.class, server.target()).build()) {
      assertEquals("hi", rpcx.create(InteropService.class).echo("x"));
    }
  }

  @Test
  void repliesTheClientCannotReadFailTheirCallOnlyNamingTheProblem() throws Exception {
    Map<String, ScriptedGrpcServer.Answer> answers =
        Map.of(
            // The prefix says 2 GiB; the stream stays open: the client must not wait for the rest.
            "echo", response(ok(), null, messageDeclaring(Integer.MAX_VALUE, (byte) 0x0a)),
            "echoLong",
                response(ok().set("grpc-encoding", "snappy"), status(0), message(0, (byte) 8, (byte) 1)),
            "echoBoolean",
                response(ok().set("grpc-encoding", "gzip"), status(0), message(1, (byte) 1, (byte) 2)),
            "echoBoxed", dataFirst(message(0)),
            "metadata", response(ok(), status(0), message(0, (byte) 0x0a, (byte) 1, (byte) 'v')));
    try (ScriptedGrpcServer server = new ScriptedGrpcServer(answers);
        RpcxClient rpcx =
            RpcxClient.builder()
                .targets(InteropService.class, server.target())
                .maxAttempts(1)
                .defaultTimeout(Duration.ofSeconds(30))
                .build()) {
      InteropService interop = rpcx.create(InteropService.class);
      String at = "the server at " + server.target() + " ";
      assertFailure(
          ResourceExhaustedException.class,
          "a reply of interop/echo from " + server.target() + " is too large: a message of"
              + " 2147483647 bytes is over the limit of 16777216 bytes",
          interop, s -> s.echo("x"));
      assertFailure(
          InternalErrorException.class,
          at + "answered with grpc-encoding 'snappy', which the client did not offer"
              + " (interop/echoLong)",
          interop, s -> s.echoLong(1));
      assertFailure(
          InternalErrorException.class,
          at + "sent a malformed message: a gzip message does not inflate: Not in GZIP format"
              + " (interop/echoBoolean)",
          interop, s -> s.echoBoolean(true));
      assertFailure(
          InternalErrorException.class,
          at + "sent DATA before its response headers (interop/echoBoxed)",
          interop, s -> s.echoBoxed(1));
      assertEquals("v", interop.metadata("k"));
      assertEquals(1, rpcx.stats().openConnections());
    }
  }

  @Test
  void garbledFramesCloseTheConnectionNamingTheProblemAndTheNextCallOpensAnother() throws Exception {
    // A frame header declaring 16 MiB on stream 0, over HTTP/2's default frame size of 16 KiB.
    ByteBuf garbage =
        Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0, 0, 0});
    Map<String, ScriptedGrpcServer.Answer> answers =
        Map.of(
            "echo", garbled(garbage),
            "metadata", response(ok(), status(0), message(0, (byte) 0x0a, (byte) 1, (byte) 'v')));
    try (LogCapture logs = LogCapture.of("io.rpcx.client.internal.transport.GrpcClientHandler");
        ScriptedGrpcServer server = new ScriptedGrpcServer(answers);
        RpcxClient rpcx =
            RpcxClient.builder()
                .targets(InteropService.class, server.target())
                .maxAttempts(1)
                .defaultTimeout(Duration.ofSeconds(30))
                .build()) {
      InteropService interop = rpcx.create(InteropService.class);
      // gRPC's clients fail such calls INTERNAL, too.
      InternalErrorException lost =
          assertThrows(InternalErrorException.class, () -> interop.echo("x"));
      assertEquals(
          "connection to " + server.target() + " closed while interop/echo was in flight: the"
              + " HTTP/2 connection to " + server.target() + " failed: Frame length: 16777215"
              + " exceeds maximum: 16384",
          lost.getMessage());
      assertEquals(
          List.of(
              "Closing connection to " + server.target() + ": HTTP/2 failed: Frame length:"
                  + " 16777215 exceeds maximum: 16384"),
          logs.messages(Level.WARN));
      assertEquals("v", interop.metadata("k"), "a new connection");
    }
  }

  private static void assertFailure(
      Class<? extends RpcxException> type,
      String message,
      InteropService interop,
      Function<InteropService, Object> call) {
    RpcxException failure = assertThrows(RpcxException.class, () -> call.apply(interop));
    assertInstanceOf(type, failure, failure.toString());
    assertEquals(message, failure.getMessage());
  }
}
