package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import interop.InteropGrpc;
import interop.InteropOuterClass.FailDeclaredRequest;
import interop.InteropOuterClass.EchoRequest;
import interop.InteropOuterClass.MetadataReply;
import interop.InteropOuterClass.MetadataRequest;
import interop.InteropOuterClass.RemainingMillisRequest;
import interop.InteropOuterClass.SleepRequest;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.server.ServerInterceptor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a gRPC user expects of a call, on RPCX: statuses (an interceptor's refusal, RPCX's own)
 * map to gRPC's codes with their message,
 * a declared exception names its class in a trailer, {@code grpc-timeout} is the call's deadline,
 * headers are the call's metadata (seen by interceptors and {@code RpcxContext}).
 */
@Timeout(60)
class GrpcCallSemanticsTest {
  static final Metadata.Key<String> EXCEPTION_CLASS =
      Metadata.Key.of("rpcx-exception-class", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> REFUSE_WITH =
      Metadata.Key.of("x-refuse-with", Metadata.ASCII_STRING_MARSHALLER);
  private static final List<String> intercepted = new CopyOnWriteArrayList<>();
  private static GrpcPeer peer;
  private static InteropGrpc.InteropBlockingStub stub;

  @BeforeAll
  static void start() {
    ServerInterceptor recorder =
        (call, next) -> {
          intercepted.add(call.method().fullName() + " " + call.metadata().get("x-tenant"));
          return next.proceed();
        };
    // An interceptor's refusal sets the call's status, as an authentication check's would.
    ServerInterceptor refuser =
        (call, next) -> {
          String status = call.metadata().get("x-refuse-with");
          if (status != null) {
            throw RpcxException.of(StatusCode.valueOf(status), call.metadata().get("x-because"));
          }
          return next.proceed();
        };
    peer = GrpcPeer.start(InteropServer.builder(0).intercept(recorder).intercept(refuser));
    stub = InteropGrpc.newBlockingStub(peer.channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    peer.close();
  }

  private static Status failWith(StatusCode status, String message) {
    Metadata headers = new Metadata();
    headers.put(REFUSE_WITH, status.name());
    headers.put(Metadata.Key.of("x-because", Metadata.ASCII_STRING_MARSHALLER), message);
    return assertThrows(
            StatusRuntimeException.class,
            () ->
                stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                    .echo(EchoRequest.newBuilder().setText("refused").build()))
        .getStatus();
  }

  @Test
  void everyStatusReachesTheClientAsGrpcsCodeWithItsMessage() {
    Map<StatusCode, Status.Code> expected =
        Map.of(
            StatusCode.BAD_REQUEST, Status.Code.INVALID_ARGUMENT,
            StatusCode.NOT_FOUND, Status.Code.UNIMPLEMENTED,
            StatusCode.TIMEOUT, Status.Code.DEADLINE_EXCEEDED,
            StatusCode.UNAVAILABLE, Status.Code.UNAVAILABLE,
            StatusCode.REMOTE_FAILURE, Status.Code.UNKNOWN,
            StatusCode.RESOURCE_EXHAUSTED, Status.Code.RESOURCE_EXHAUSTED,
            StatusCode.UNAUTHENTICATED, Status.Code.UNAUTHENTICATED,
            StatusCode.INTERNAL, Status.Code.INTERNAL,
            StatusCode.CANCELLED, Status.Code.CANCELLED);
    assertEquals(StatusCode.values().length - 1, expected.size(), "every status but OK");
    expected.forEach(
        (rpcx, grpc) -> {
          Status status = failWith(rpcx, "because " + rpcx);
          assertEquals(grpc, status.getCode(), rpcx.name());
          assertEquals("because " + rpcx, status.getDescription(), rpcx.name());
        });
  }

  @Test
  void aMessageOfAnyTextSurvivesPercentEncoding() {
    String text = "50% d\u00e9j\u00e0 vu \uD83D\uDE00\nline two";
    StatusRuntimeException failed =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.failDeclared(FailDeclaredRequest.newBuilder().setMessage(text).build()));
    assertEquals(text, failed.getStatus().getDescription());
  }

  @Test
  void aDeclaredExceptionNamesItsClassInATrailer() {
    StatusRuntimeException failed =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.failDeclared(FailDeclaredRequest.newBuilder().setMessage("no such order").build()));
    assertEquals(Status.Code.UNKNOWN, failed.getStatus().getCode());
    assertEquals("no such order", failed.getStatus().getDescription());
    assertEquals(InteropException.class.getName(), failed.getTrailers().get(EXCEPTION_CLASS));
  }

  @Test
  void grpcTimeoutIsTheCallsDeadline() {
    long remaining =
        stub.withDeadlineAfter(5, TimeUnit.SECONDS)
            .remainingMillis(RemainingMillisRequest.getDefaultInstance())
            .getValue();
    assertTrue(remaining > 3_000 && remaining <= 5_000, "remaining " + remaining);
    assertEquals(
        -1,
        InteropGrpc.newBlockingStub(peer.channel)
            .remainingMillis(RemainingMillisRequest.getDefaultInstance())
            .getValue(),
        "no grpc-timeout, no deadline");
  }

  @Test
  void aCallPastItsDeadlineEndsDeadlineExceeded() {
    StatusRuntimeException late =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                stub.withDeadlineAfter(200, TimeUnit.MILLISECONDS)
                    .sleep(SleepRequest.newBuilder().setMillis(2_000).build()));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, late.getStatus().getCode());
  }

  @Test
  void headersAreTheCallsMetadataForTheImplementationAndInterceptors() {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-tenant", Metadata.ASCII_STRING_MARSHALLER), "acme");
    InteropGrpc.InteropBlockingStub withHeaders =
        stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    assertEquals(
        "acme", withHeaders.metadata(MetadataRequest.newBuilder().setKey("x-tenant").build()).getValue());
    assertTrue(intercepted.contains("interop/metadata acme"), intercepted.toString());
  }

  @Test
  void grpcsOwnHeadersAreNotMetadataButTheUserAgentIs() {
    for (String header : new String[] {"content-type", "te", "grpc-timeout", ":path", ":authority"}) {
      MetadataReply reply =
          stub.withDeadlineAfter(5, TimeUnit.SECONDS)
              .metadata(MetadataRequest.newBuilder().setKey(header).build());
      assertFalse(reply.hasValue(), header + ": " + reply.getValue());
    }
    String userAgent =
        stub.metadata(MetadataRequest.newBuilder().setKey("user-agent").build()).getValue();
    assertTrue(userAgent.startsWith("grpc-java"), userAgent);
  }
}
