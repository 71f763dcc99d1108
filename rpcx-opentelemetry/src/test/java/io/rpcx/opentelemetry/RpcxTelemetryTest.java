package io.rpcx.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RpcxContext;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With the OpenTelemetry SDK, a call from a client to server A, which calls server B while serving
 * it, makes one trace of four spans, and both sides record the RPC duration histograms.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RpcxTelemetryTest {

  @RPCXClient(name = "front")
  public interface Front {
    @Method(timeoutMillis = 3_000)
    String relay();
  }

  @RPCXClient(name = "back")
  public interface Back {
    /** What B sees: its time left and the baggage it received. */
    @Method(timeoutMillis = 10_000)
    String look();
  }

  @RPCXClient(name = "back")
  public interface BackWithUnknownMethod {
    String vanish();
  }

  @RPCXServer(name = "back")
  public static final class BackImpl implements Back {
    @Override
    public String look() {
      RpcxContext call = RpcxContext.current();
      return call.timeRemaining().map(Duration::toMillis).orElse(-1L)
          + " "
          + call.metadata().get("baggage");
    }
  }

  @RPCXServer(name = "front")
  public static final class FrontImpl implements Front {
    volatile Back back;

    @Override
    public String relay() {
      return back.look();
    }
  }

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  private OpenTelemetrySdk openTelemetry;
  private RpcxServer serverA;
  private RpcxServer serverB;
  private RpcxClient clientOfB;

  @BeforeEach
  void start() {
    openTelemetry =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build())
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .setPropagators(
                ContextPropagators.create(
                    TextMapPropagator.composite(
                        W3CTraceContextPropagator.getInstance(),
                        W3CBaggagePropagator.getInstance())))
            .build();
    serverB =
        RpcxServerTelemetry.instrument(
                RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new BackImpl()),
                openTelemetry)
            .build()
            .start();
    clientOfB =
        RpcxClient.builder()
            .target("127.0.0.1", serverB.port())
            .intercept(RpcxClientTelemetry.create(openTelemetry))
            .build();
    FrontImpl front = new FrontImpl();
    front.back = clientOfB.create(Back.class);
    serverA =
        RpcxServerTelemetry.instrument(
                RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(front), openTelemetry)
            .build()
            .start();
  }

  @AfterEach
  void stop() {
    clientOfB.close();
    serverA.stop();
    serverB.stop();
    openTelemetry.close();
  }

  private RpcxClient clientOfA() {
    return RpcxClient.builder()
        .target("127.0.0.1", serverA.port())
        .intercept(RpcxClientTelemetry.create(openTelemetry))
        .build();
  }

  @Test
  void aCallThroughTwoServersIsOneTraceOfFourSpansEachTheChildOfTheOneBefore() {
    String seen;
    try (RpcxClient client = clientOfA();
        Scope baggage = Baggage.builder().put("tenant", "a").build().makeCurrent()) {
      seen = client.create(Front.class).relay();
    }
    String[] parts = seen.split(" ", 2);
    long left = Long.parseLong(parts[0]);
    assertTrue(left > 0 && left <= 3_000, "B had " + left + " ms: A's deadline, not its own 10 s");
    assertEquals("tenant=a", parts[1], "the baggage travelled from the caller through A to B");

    List<SpanData> finished = awaitSpans(4);
    Map<String, SpanData> byRole =
        finished.stream()
            .collect(Collectors.toMap(s -> s.getKind() + " " + s.getName(), Function.identity()));
    SpanData callerToA = byRole.get(SpanKind.CLIENT + " front/relay");
    SpanData servedByA = byRole.get(SpanKind.SERVER + " front/relay");
    SpanData aToB = byRole.get(SpanKind.CLIENT + " back/look");
    SpanData servedByB = byRole.get(SpanKind.SERVER + " back/look");
    assertEquals(1, finished.stream().map(SpanData::getTraceId).distinct().count(), "one trace");
    assertFalse(callerToA.getParentSpanContext().isValid(), "the caller's span is the root");
    assertEquals(callerToA.getSpanId(), servedByA.getParentSpanId());
    assertEquals(servedByA.getSpanId(), aToB.getParentSpanId());
    assertEquals(aToB.getSpanId(), servedByB.getParentSpanId());
    assertEquals("OK", servedByB.getAttributes().get(RpcxAttributes.RPC_STATUS_CODE));
    assertEquals("127.0.0.1", aToB.getAttributes().get(RpcxAttributes.SERVER_ADDRESS));
  }

  @Test
  void bothSidesRecordTheDurationHistogramsWithTheRpcAttributes() {
    try (RpcxClient client = clientOfA()) {
      client.create(Front.class).relay();
      assertThrows(
          NotFoundException.class, () -> client.create(BackWithUnknownMethod.class).vanish());
    }
    Collection<MetricData> collected = metrics.collectAllMetrics();
    HistogramPointData servedB = point(collected, "rpc.server.call.duration", "back/look", "OK");
    assertEquals(1, servedB.getCount());
    assertEquals("rpcx", servedB.getAttributes().get(RpcxAttributes.RPC_SYSTEM_NAME));
    assertEquals(null, servedB.getAttributes().get(RpcxAttributes.ERROR_TYPE));
    assertEquals(1, point(collected, "rpc.client.call.duration", "front/relay", "OK").getCount());
    HistogramPointData other = point(collected, "rpc.server.call.duration", "_OTHER", "NOT_FOUND");
    assertEquals("NOT_FOUND", other.getAttributes().get(RpcxAttributes.ERROR_TYPE));
  }

  @Test
  void aMalformedTraceparentStartsANewTraceAndTheCallSucceeds() {
    try (RpcxClient plain =
        RpcxClient.builder()
            .target("127.0.0.1", serverB.port())
            .metadata("traceparent", "00-not-a-trace-01")
            .build()) {
      String seen = plain.create(Back.class).look();
      assertTrue(seen.matches("\\d+ null"), "the call succeeded, without baggage: " + seen);
    }
    SpanData served = awaitSpans(1).get(0);
    assertEquals(SpanKind.SERVER, served.getKind());
    assertFalse(served.getParentSpanContext().isValid(), "a new trace, not the garbage one");
  }

  @Test
  void theGaugesReportTheServersConnections() throws Exception {
    try (RpcxClient client = clientOfA();
        AutoCloseable server = RpcxServerTelemetry.registerGauges(serverA, openTelemetry);
        AutoCloseable clientGauges = RpcxClientTelemetry.registerGauges(client, openTelemetry)) {
      client.create(Front.class).relay();
      Collection<MetricData> collected = metrics.collectAllMetrics();
      assertEquals(1, gauge(collected, "rpcx.client.connections.open"));
      assertEquals(0, gauge(collected, "rpcx.client.calls.active"));
    }
  }

  private static HistogramPointData point(
      Collection<MetricData> metrics, String name, String method, String status) {
    return metrics.stream()
        .filter(metric -> metric.getName().equals(name))
        .flatMap(metric -> metric.getHistogramData().getPoints().stream())
        .filter(
            p ->
                method.equals(p.getAttributes().get(RpcxAttributes.RPC_METHOD))
                    && status.equals(p.getAttributes().get(RpcxAttributes.RPC_STATUS_CODE)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " " + method + " " + status + ": " + metrics));
  }

  private static long gauge(Collection<MetricData> metrics, String name) {
    return metrics.stream()
        .filter(metric -> metric.getName().equals(name))
        .flatMap(metric -> metric.getLongGaugeData().getPoints().stream())
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + ": " + metrics))
        .getValue();
  }

  private List<SpanData> awaitSpans(int count) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (spans.getFinishedSpanItems().size() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("spans: " + spans.getFinishedSpanItems());
      }
      Thread.onSpinWait();
    }
    List<SpanData> finished = spans.getFinishedSpanItems();
    assertEquals(count, finished.size(), finished.toString());
    return finished;
  }
}
