package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.internal.testing.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Both ends RPCX, over gRPC: a client given a {@code grpc://} target calls an RPCX server's gRPC
 * side, and gets what it gets over RPCX's own protocol (the same values, with a record's empty
 * text kept, since both ends read it with RPCX's codecs; the same typed exceptions with the
 * server's words; deadlines, metadata, every stream shape, cancel).
 */
@Timeout(60)
class RpcxCallsRpcxOverGrpcTest {
  private static final InteropServiceImpl implementation = new InteropServiceImpl();
  private static RpcxServer server;
  private static RpcxClient overGrpc;
  private static RpcxClient overRpcx;
  private static InteropService interop;

  @BeforeAll
  static void start() {
    // An interceptor's refusal sets the call's status, as an authentication check's would.
    ServerInterceptor refuser =
        (call, next) -> {
          String status = call.metadata().get("x-refuse-with");
          if (status != null) {
            throw RpcxException.of(StatusCode.valueOf(status), "refused: " + status);
          }
          return next.proceed();
        };
    server =
        InteropServer.builder(0, implementation).maxFrameSize(32 << 20).intercept(refuser).build().start();
    overGrpc =
        RpcxClient.builder()
            .targets(InteropService.class, "grpc://127.0.0.1:" + server.port())
            .maxFrameSize(32 << 20)
            .metadata("x-tenant", "acme")
            .defaultTimeout(Duration.ofSeconds(20))
            .build();
    overRpcx =
        RpcxClient.builder()
            .targets(InteropService.class, "127.0.0.1:" + server.port())
            .defaultTimeout(Duration.ofSeconds(20))
            .build();
    interop = overGrpc.create(InteropService.class);
  }

  @AfterAll
  static void stop() {
    overGrpc.close();
    overRpcx.close();
    server.stop();
  }

  @Test
  void everyValueComesBackAsOverRpcx() {
    assertEquals("", interop.echo(""));
    assertNull(interop.echo(null));
    assertEquals(0, interop.echoLong(0));
    assertEquals(false, interop.echoBoolean(false));
    assertNull(interop.echoBoxed(null));
    assertEquals(0, interop.echoBoxed(0));
    assertArrayEquals(new byte[0], interop.echoBytes(new byte[0]));
    Item sparse = new Item(0, "", new ArrayList<>(Arrays.asList("", null)), Map.of("", ""), null);
    assertEquals(sparse, interop.echoItem(sparse), "RPCX's codecs on both ends keep \"\" apart");
    Shelf shelf = new Shelf("", 0, false, List.of(Item.of(1)));
    assertEquals(shelf, interop.echoShelf(shelf));
    assertEquals(5_000_000_007L, interop.add(7, 5_000_000_000L));
    assertEquals(16 << 20, interop.bytesOfSize(16 << 20).length);
    InteropService rpcx = overRpcx.create(InteropService.class);
    assertEquals(rpcx.echoItem(sparse), interop.echoItem(sparse));
  }

  @Test
  void everyStreamShape() throws Exception {
    List<Item> items = Received.all(interop.count(500));
    assertEquals(500, items.size());
    assertEquals(Item.of(499), items.get(499));
    assertEquals(6L, interop.sum(Publishers.of(List.of(1, 2, 3))).get(20, TimeUnit.SECONDS));
    assertEquals("a-b", interop.join("-", Publishers.of(List.of("a", "b"))).get(20, TimeUnit.SECONDS));
    assertEquals(List.of("X", "Y"), Received.all(interop.upper(Publishers.of(List.of("x", "y")))));
    try (LogCapture logs = LogCapture.of("io.rpcx.server.internal.dispatch.ServerCall")) {
      Received<Item> failing = Received.of(interop.countThenFail(2), 10);
      RemoteFailureException failure =
          assertInstanceOf(RemoteFailureException.class, failing.failure());
      assertEquals(IllegalStateException.class.getName(), failure.remoteClassName());
      assertEquals(2, failing.items.size());
      List<String> logged = logs.messages(Level.WARN);
      assertEquals(1, logged.size(), logged.toString());
      assertTrue(
          logged.get(0).startsWith(
              "interop/countThenFail threw java.lang.IllegalStateException: failed after 2"),
          logged.get(0));
    }
  }

  @Test
  void aCancelledStreamCancelsTheImplementationsPublisher() throws Exception {
    int before = implementation.cancelledStreams();
    Received<Item> received = Received.of(interop.count(1_000_000), 5);
    RpcxCallsGrpcStreamsTest.await("5 items", () -> received.items.size() == 5);
    received.cancel();
    RpcxCallsGrpcStreamsTest.await(
        "the publisher's cancel", () -> implementation.cancelledStreams() > before);
  }

  @Test
  void deadlinesMetadataAndExceptionsAsOverRpcx() {
    long remaining = interop.remainingMillis();
    assertTrue(remaining > 10_000 && remaining <= 20_000, "the server saw " + remaining + " ms");
    assertEquals("acme", interop.metadata("x-tenant"));
    InteropException declared =
        assertThrows(InteropException.class, () -> interop.failDeclared("no such order"));
    assertEquals("no such order", declared.getMessage());
  }

  @Test
  void theServersStatusesAreTheSameTypedExceptionsAsOverRpcx() {
    for (StatusCode status : StatusCode.values()) {
      if (status == StatusCode.OK || status == StatusCode.REMOTE_FAILURE) {
        continue;
      }
      RpcxException overGrpcFailure = refused(overGrpc, status);
      RpcxException overRpcxFailure = refused(overRpcx, status);
      assertEquals(overRpcxFailure.getClass(), overGrpcFailure.getClass(), status.name());
      assertEquals(status, overGrpcFailure.status(), status.name());
      assertTrue(overGrpcFailure.getMessage().endsWith(": refused: " + status), overGrpcFailure.getMessage());
    }
  }

  private static RpcxException refused(RpcxClient client, StatusCode status) {
    try (RpcxClient refusing =
        RpcxClient.builder()
            .targets(
                InteropService.class,
                client == overGrpc
                    ? "grpc://127.0.0.1:" + server.port()
                    : "127.0.0.1:" + server.port())
            .metadata("x-refuse-with", status.name())
            .maxAttempts(1)
            .build()) {
      return assertThrows(RpcxException.class, () -> refusing.create(InteropService.class).echo("x"));
    }
  }
}
