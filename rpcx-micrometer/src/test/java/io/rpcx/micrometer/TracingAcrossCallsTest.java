package io.rpcx.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.BaggageInScope;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxContext;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With Micrometer Tracing on the OpenTelemetry SDK, a call from a client to server A, which calls
 * server B while serving it, makes one trace of four spans, each the child of the one before; B
 * sees the deadline A was given, and the baggage the caller set.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@SuppressWarnings({"try"}) // scopes held open for their bodies
class TracingAcrossCallsTest {

  @RPCXClient(name = "front")
  public interface Front {
    @Method(timeoutMillis = 3_000)
    String relay();

    /** Calls B from another thread, through an executor that carries the call's context. */
    @Method(timeoutMillis = 3_000)
    CompletableFuture<String> relayFromAnotherThread();
  }

  @RPCXClient(name = "back")
  public interface Back {
    /** What B sees: its time left and the baggage it received. */
    @Method(timeoutMillis = 10_000)
    String look();
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
    final ExecutorService pool = Executors.newSingleThreadExecutor();
    volatile Back back;

    @Override
    public String relay() {
      return back.look();
    }

    @Override
    public CompletableFuture<String> relayFromAnotherThread() {
      return CompletableFuture.supplyAsync(back::look, RpcxContext.propagating(pool));
    }
  }

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private SdkTracerProvider tracerProvider;
  private OtelTracer tracer;
  private ObservationRegistry observations;
  private RpcxServer serverA;
  private RpcxServer serverB;
  private RpcxClient clientOfB;
  private FrontImpl front;

  @BeforeEach
  void start() {
    tracerProvider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    io.opentelemetry.api.trace.Tracer otelTracer = tracerProvider.get("rpcx-testing");
    ContextPropagators propagators =
        ContextPropagators.create(
            TextMapPropagator.composite(
                W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance()));
    OtelCurrentTraceContext current = new OtelCurrentTraceContext();
    tracer =
        new OtelTracer(
            otelTracer,
            current,
            event -> {},
            new OtelBaggageManager(current, List.of("tenant"), List.of()));
    OtelPropagator propagator = new OtelPropagator(propagators, otelTracer);
    observations = ObservationRegistry.create();
    observations
        .observationConfig()
        .observationHandler(
            new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));

    RpcxServer.Builder b =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new BackImpl());
    serverB = RpcxServerObservations.instrument(b, observations).build().start();
    clientOfB =
        RpcxClient.builder()
            .target("127.0.0.1", serverB.port())
            .intercept(RpcxClientObservations.interceptor(observations))
            .build();
    front = new FrontImpl();
    front.back = clientOfB.create(Back.class);
    RpcxServer.Builder a = RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(front);
    serverA = RpcxServerObservations.instrument(a, observations).build().start();
  }

  @AfterEach
  void stop() {
    clientOfB.close();
    serverA.stop();
    front.pool.shutdownNow();
    serverB.stop();
    tracerProvider.close();
  }

  @Test
  void aCallThroughTwoServersIsOneTraceOfFourSpansEachTheChildOfTheOneBefore() {
    String seen;
    try (RpcxClient client =
            RpcxClient.builder()
                .target("127.0.0.1", serverA.port())
                .intercept(RpcxClientObservations.interceptor(observations))
                .build();
        BaggageInScope tenant = tracer.createBaggageInScope("tenant", "a")) {
      seen = client.create(Front.class).relay();
    }
    String[] parts = seen.split(" ", 2);
    long left = Long.parseLong(parts[0]);
    assertTrue(left > 0 && left <= 3_000, "B had " + left + " ms: A's deadline, not its own 10 s");
    // W3C baggage is "key=value" followed by optional ";property" entries the tracer may add.
    assertEquals(
        "tenant=a",
        parts[1].split(";", 2)[0],
        "the baggage travelled from the caller through A to B");

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
    assertEquals(
        "127.0.0.1 " + serverB.port(),
        peer(aToB),
        "the client span names the server it called: " + aToB.getAttributes());
  }

  /** The remote host and port Micrometer Tracing put on a span ({@code network.peer.*}). */
  private static String peer(SpanData span) {
    Map<String, Object> attributes = new java.util.TreeMap<>();
    span.getAttributes().forEach((key, value) -> attributes.put(key.getKey(), value));
    return attributes.get("network.peer.address") + " " + attributes.get("network.peer.port");
  }

  @Test
  void aCallMadeOnAnotherThreadThroughAPropagatingExecutorIsStillTheServedCallsChild()
      throws Exception {
    try (RpcxClient client =
        RpcxClient.builder()
            .target("127.0.0.1", serverA.port())
            .intercept(RpcxClientObservations.interceptor(observations))
            .build()) {
      String seen = client.create(Front.class).relayFromAnotherThread().get(10, TimeUnit.SECONDS);
      long left = Long.parseLong(seen.split(" ", 2)[0]);
      assertTrue(left > 0 && left <= 3_000, "B had " + left + " ms");
    }
    List<SpanData> finished = awaitSpans(4);
    Map<String, SpanData> byRole =
        finished.stream()
            .collect(Collectors.toMap(s -> s.getKind() + " " + s.getName(), Function.identity()));
    SpanData servedByA = byRole.get(SpanKind.SERVER + " front/relayFromAnotherThread");
    SpanData aToB = byRole.get(SpanKind.CLIENT + " back/look");
    assertEquals(1, finished.stream().map(SpanData::getTraceId).distinct().count(), "one trace");
    assertEquals(servedByA.getSpanId(), aToB.getParentSpanId());
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
    List<SpanData> finished = awaitSpans(1);
    SpanData served = finished.get(0);
    assertEquals(SpanKind.SERVER, served.getKind());
    assertFalse(served.getParentSpanContext().isValid(), "a new trace, not the garbage one");
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
