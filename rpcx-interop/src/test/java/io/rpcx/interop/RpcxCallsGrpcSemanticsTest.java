package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnauthenticatedException;
import io.rpcx.core.UnavailableException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an RPCX caller expects of a call, met over gRPC against grpc-java: the deadline travels as
 * {@code grpc-timeout} and {@code DEADLINE_EXCEEDED} is RPCX's timeout; a caller that gives up
 * resets the stream, which the server sees as a cancel; metadata and interceptors' additions arrive
 * as headers; every gRPC status is the typed exception an RPCX caller gets for it, and a declared
 * exception comes back as itself through the {@code rpcx-exception-class} trailer.
 */
@Timeout(60)
class RpcxCallsGrpcSemanticsTest {
  /** The gRPC code the interceptor asks the server to fail the next call of this thread with. */
  private static final ThreadLocal<Integer> FAIL_WITH = new ThreadLocal<>();
  private static final List<String> intercepted = new CopyOnWriteArrayList<>();

  private static GrpcJavaServer server;
  private static RpcxClient client;
  private static InteropService interop;

  /** A method the grpc-java server does not have. */
  @RPCXClient(name = "interop")
  interface Extended {
    String shout(String text);
  }

  @BeforeAll
  static void start() {
    server = GrpcJavaServer.start();
    ClientInterceptor failWith =
        new ClientInterceptor() {
          @Override
          public void onStart(ClientCall call) {
            Integer code = FAIL_WITH.get();
            if (code != null) {
              call.putMetadata("x-fail-with", code.toString());
              call.putMetadata("x-because", "because " + code);
            }
            call.putMetadata("x-attempt", Integer.toString(call.attempt()));
          }
        };
    ClientInterceptor recorder =
        new ClientInterceptor() {
          @Override
          public void onEnd(ClientCall call, CallResult result) {
            intercepted.add(
                call.method().fullName() + " " + call.server() + " " + result.status()
                    + (result.requestBytes() > 0 ? " sent" : "")
                    + (result.responseBytes() > 0 ? " received" : ""));
          }
        };
    client =
        RpcxClient.builder()
            .targets(InteropService.class, server.target())
            .targets(Extended.class, server.target())
            .metadata("x-tenant", "acme")
            .intercept(recorder)
            .intercept(failWith)
            .defaultTimeout(Duration.ofSeconds(30))
            .build();
    interop = client.create(InteropService.class);
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  private String address() {
    return "grpc://127.0.0.1:" + server.port();
  }

  @Test
  void theDeadlineReachesTheServerAsGrpcTimeout() {
    long remaining = interop.remainingMillis();
    assertTrue(remaining > 20_000 && remaining <= 30_000, "the server saw " + remaining + " ms");
  }

  @Test
  void aCallPastItsDeadlineTimesOutAndTheServerStops() throws Exception {
    long cancelled = RpcxCallsGrpcStreamsTest.count(server.service.cancelled, "sleep");
    try (RpcxClient hurried =
        RpcxClient.builder()
            .targets(InteropService.class, server.target())
            .defaultTimeout(Duration.ofMillis(300))
            .build()) {
      CallTimeoutException late =
          assertThrows(
              CallTimeoutException.class, () -> hurried.create(InteropService.class).sleep(5_000));
      assertEquals(
          "interop/sleep timed out after 300 ms waiting for " + address(), late.getMessage());
    }
    RpcxCallsGrpcStreamsTest.awaitMore(
        server.service.cancelled, "sleep", cancelled, "the server's cancel handler");
  }

  @Test
  void anInterruptedCallerResetsTheStreamLongBeforeTheDeadline() throws Exception {
    long watching = RpcxCallsGrpcStreamsTest.count(server.service.watching, "sleep");
    long cancelled = RpcxCallsGrpcStreamsTest.count(server.service.cancelled, "sleep");
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                interop.sleep(20_000);
              } catch (Throwable t) {
                thrown.set(t);
              }
            });
    long start = System.nanoTime();
    caller.start();
    RpcxCallsGrpcStreamsTest.awaitMore(server.service.watching, "sleep", watching, "the server's method");
    caller.interrupt();
    caller.join();
    assertInstanceOf(CancelledException.class, thrown.get());
    RpcxCallsGrpcStreamsTest.awaitMore(
        server.service.cancelled, "sleep", cancelled, "the server's cancel handler");
    assertTrue(
        System.nanoTime() - start < 15_000_000_000L,
        "cancelled by the client's reset, not by the server's own deadline");
  }

  @Test
  void metadataAndWhatInterceptorsAddArriveAsHeaders() {
    assertEquals("acme", interop.metadata("x-tenant"));
    assertEquals("1", interop.metadata("x-attempt"));
    assertEquals("rpcx-java", interop.metadata("user-agent"));
    assertEquals(null, interop.metadata("x-absent"));
  }

  @Test
  void metadataGrpcCannotCarryIsRefusedNamingIt() {
    try (RpcxClient accented =
        RpcxClient.builder()
            .targets(InteropService.class, server.target())
            .metadata("x-note", "caf\u00e9")
            .build()) {
      BadRequestException refused =
          assertThrows(
              BadRequestException.class, () -> accented.create(InteropService.class).echo("x"));
      assertEquals(
          "interop/echo cannot be called over gRPC: metadata 'x-note' has a value gRPC cannot"
              + " carry: character 233 at 3 (gRPC header values are printable ASCII)",
          refused.getMessage());
    }
  }

  @Test
  void everyGrpcStatusIsTheTypedExceptionOfItsMeaning() {
    Map<Integer, Class<? extends RpcxException>> expected = new LinkedHashMap<>();
    expected.put(1, CancelledException.class);
    expected.put(2, RemoteFailureException.class);
    expected.put(3, BadRequestException.class);
    expected.put(4, CallTimeoutException.class);
    expected.put(5, RemoteFailureException.class);
    expected.put(6, RemoteFailureException.class);
    expected.put(7, RemoteFailureException.class);
    expected.put(8, ResourceExhaustedException.class);
    expected.put(9, BadRequestException.class);
    expected.put(10, RemoteFailureException.class);
    expected.put(11, BadRequestException.class);
    expected.put(12, NotFoundException.class);
    expected.put(13, InternalErrorException.class);
    expected.put(14, UnavailableException.class);
    expected.put(15, InternalErrorException.class);
    expected.put(16, UnauthenticatedException.class);
    Map<Integer, String> names =
        Map.of(
            5, "NOT_FOUND", 6, "ALREADY_EXISTS", 7, "PERMISSION_DENIED", 9, "FAILED_PRECONDITION",
            10, "ABORTED", 11, "OUT_OF_RANGE", 15, "DATA_LOSS");
    expected.forEach(
        (code, type) -> {
          FAIL_WITH.set(code);
          try {
            RpcxException failure = assertThrows(RpcxException.class, () -> interop.echo("x"));
            assertInstanceOf(type, failure, "code " + code);
            // Codes RPCX has no status of its own for keep their gRPC name in the message.
            String because =
                names.containsKey(code) ? names.get(code) + ": because " + code : "because " + code;
            assertEquals(
                "interop/echo failed on " + address() + ": " + because,
                failure.getMessage(),
                "code " + code);
          } finally {
            FAIL_WITH.remove();
          }
        });
  }

  @Test
  void unavailableFromAGrpcServerIsNotRetriedUnlessIdempotent() {
    FAIL_WITH.set(14);
    try {
      UnavailableException failure =
          assertThrows(UnavailableException.class, () -> interop.echo("x"));
      assertFalse(failure.isSafeToRetry(), "a gRPC server may say UNAVAILABLE after running it");
      assertEquals(StatusCode.UNAVAILABLE, failure.status());
    } finally {
      FAIL_WITH.remove();
    }
  }

  @Test
  void aDeclaredExceptionIsThrownAsItselfWithTheServersMessage() {
    InteropException thrown =
        assertThrows(InteropException.class, () -> interop.failDeclared("no such order 7"));
    assertEquals("no such order 7", thrown.getMessage());
    String text = "50% d\u00e9j\u00e0 vu \uD83D\uDE00\nline two";
    assertEquals(
        text, assertThrows(InteropException.class, () -> interop.failDeclared(text)).getMessage());
  }

  @Test
  void aMethodTheServerDoesNotHaveIsNotFound() {
    Extended extended = client.create(Extended.class);
    NotFoundException missing = assertThrows(NotFoundException.class, () -> extended.shout("x"));
    assertEquals(
        "interop/shout failed on " + address() + ": Method not found: interop.Interop/shout",
        missing.getMessage());
  }

  @Test
  void interceptorsSeeEachCallWithItsServerAndSizes() {
    intercepted.clear();
    assertEquals("x", interop.echo("x"));
    FAIL_WITH.set(3);
    try {
      assertThrows(BadRequestException.class, () -> interop.echo("y"));
    } finally {
      FAIL_WITH.remove();
    }
    assertEquals(
        List.of(
            "interop/echo " + address() + " OK sent received",
            "interop/echo " + address() + " BAD_REQUEST sent"),
        intercepted);
  }
}
