package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import interop.InteropGrpc;
import interop.InteropOuterClass.EchoRequest;
import interop.InteropOuterClass.FailDeclaredRequest;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.rpcx.micrometer.RpcxKeys;
import io.rpcx.micrometer.RpcxServerMeters;
import io.rpcx.opentelemetry.RpcxServerTelemetry;
import io.rpcx.internal.testing.LogCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Micrometer's timers and OpenTelemetry's spans see gRPC calls as they see RPCX calls. */
@Timeout(60)
class GrpcObservabilityTest {

  @Test
  void micrometerTimesGrpcCallsByMethodAndStatus() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (GrpcPeer peer = GrpcPeer.start(RpcxServerMeters.instrument(InteropServer.builder(0), registry));
        LogCapture log = LogCapture.of("io.rpcx.server")) {
      InteropGrpc.InteropBlockingStub stub =
          InteropGrpc.newBlockingStub(peer.channel).withDeadlineAfter(10, TimeUnit.SECONDS);
      stub.echo(EchoRequest.newBuilder().setText("a").build());
      stub.echo(EchoRequest.newBuilder().setText("b").build());
      assertThrows(
          StatusRuntimeException.class,
          () -> stub.failDeclared(FailDeclaredRequest.newBuilder().setMessage("no").build()));

      assertEquals(
          2,
          registry.get(RpcxKeys.SERVER_CALL_DURATION)
              .tag(RpcxKeys.RPC_METHOD, "interop/echo")
              .tag(RpcxKeys.RPC_STATUS_CODE, "OK")
              .timer()
              .count());
      assertEquals(
          1,
          registry.get(RpcxKeys.SERVER_CALL_DURATION)
              .tag(RpcxKeys.RPC_METHOD, "interop/failDeclared")
              .tag(RpcxKeys.RPC_STATUS_CODE, "REMOTE_FAILURE")
              .timer()
              .count());
      assertEquals(List.of(), log.warningsContaining(""), "a declared exception is logged below WARN");
    }
  }

  @Test
  void aTraceparentHeaderMakesTheServerSpanAChildOfTheCallersSpan() {
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    try (OpenTelemetrySdk openTelemetry =
            OpenTelemetrySdk.builder()
                .setTracerProvider(
                    SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        GrpcPeer peer =
            GrpcPeer.start(RpcxServerTelemetry.instrument(InteropServer.builder(0), openTelemetry))) {
      String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
      String parentSpanId = "00f067aa0ba902b7";
      Metadata headers = new Metadata();
      headers.put(
          Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER),
          "00-" + traceId + "-" + parentSpanId + "-01");
      InteropGrpc.newBlockingStub(peer.channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
          .echo(EchoRequest.newBuilder().setText("traced").build());

      List<SpanData> finished = spans.getFinishedSpanItems();
      assertEquals(1, finished.size(), finished.toString());
      SpanData span = finished.get(0);
      assertEquals(traceId, span.getTraceId());
      assertEquals(parentSpanId, span.getParentSpanId());
      assertEquals("interop/echo", span.getName());
    }
  }
}
