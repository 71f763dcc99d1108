package io.rpcx.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
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
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.RpcxContext;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With the OpenTelemetry SDK, a call from a client to server A, which calls server B while serving
 * it, makes one trace of four spans, and both sides record the RPC duration histograms. A stream
 * call records its messages per call and on its spans on both sides, however it ends.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@SuppressWarnings({"try"}) // scopes held open for their bodies
class RpcxTelemetryTest {
  /** How long a wait for a condition parks between looks. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

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

    /** A server stream: {@code count} words, then the end. */
    Flow.Publisher<String> words(int count);

    /** {@code before} words, then an {@code IllegalStateException}. */
    Flow.Publisher<String> wordsThenFail(int before);

    /** Words for as long as they are requested: the caller cancels. */
    Flow.Publisher<String> endless();
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

    @Override
    public Flow.Publisher<String> words(int count) {
      return new Words(count, null);
    }

    @Override
    public Flow.Publisher<String> wordsThenFail(int before) {
      return new Words(before, new IllegalStateException("no more words"));
    }

    @Override
    public Flow.Publisher<String> endless() {
      return new Words(Long.MAX_VALUE, null);
    }
  }

  /** {@code count} words as requested, then the end or {@code failure}; no recursion. */
  static final class Words implements Flow.Publisher<String> {
    private final long count;
    private final Throwable failure;

    Words(long count, Throwable failure) {
      this.count = count;
      this.failure = failure;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super String> subscriber) {
      AtomicLong demand = new AtomicLong();
      AtomicBoolean done = new AtomicBoolean();
      long[] next = {0};
      subscriber.onSubscribe(
          new Flow.Subscription() {
            @Override
            public void request(long n) {
              if (demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b) != 0) {
                return;
              }
              long served = 0;
              while (true) {
                long wanted = demand.get();
                while (served < wanted && next[0] < count && !done.get()) {
                  subscriber.onNext("w" + next[0]++);
                  served++;
                }
                if (next[0] == count && done.compareAndSet(false, true)) {
                  if (failure == null) {
                    subscriber.onComplete();
                  } else {
                    subscriber.onError(failure);
                  }
                  return;
                }
                if (done.get() || demand.addAndGet(-served) == 0) {
                  return;
                }
                served = 0;
              }
            }

            @Override
            public void cancel() {
              done.set(true);
            }
          });
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
            .maxStreamWindow(1) // credit one message ahead: a stream cancelled at 3 is sent 3
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

  @Test
  void aStreamCallRecordsItsMessagesPerCallAndOnItsSpansOnBothSides() throws Exception {
    Back back = clientOfB.create(Back.class);
    Recorder<String> recorder = new Recorder<>(Long.MAX_VALUE);
    back.words(5).subscribe(recorder);
    assertNull(recorder.awaitEnd());
    assertEquals(5, recorder.items.size());
    back.look(); // a unary call beside it records no messages

    HistogramPointData received =
        awaitPoint("rpc.client.responses_per_rpc", "back/words", "OK", 5);
    assertEquals(1, received.getCount());
    assertEquals("127.0.0.1", received.getAttributes().get(RpcxAttributes.SERVER_ADDRESS));
    HistogramPointData sent = awaitPoint("rpc.server.responses_per_rpc", "back/words", "OK", 5);
    assertEquals(1, sent.getCount());
    Collection<MetricData> collected = metrics.collectAllMetrics();
    // A server stream sends nothing from the client: no histograms for the directions it lacks.
    assertTrue(find(collected, "rpc.client.requests_per_rpc", "back/words", "OK").isEmpty());
    assertTrue(find(collected, "rpc.server.requests_per_rpc", "back/words", "OK").isEmpty());
    assertTrue(find(collected, "rpc.client.responses_per_rpc", "back/look", "OK").isEmpty());
    assertTrue(find(collected, "rpc.server.responses_per_rpc", "back/look", "OK").isEmpty());

    Map<String, SpanData> spansByRole =
        awaitSpans(4).stream()
            .collect(Collectors.toMap(s -> s.getKind() + " " + s.getName(), Function.identity()));
    SpanData client = spansByRole.get(SpanKind.CLIENT + " back/words");
    assertEquals(5L, client.getAttributes().get(RpcxAttributes.STREAM_MESSAGES_RECEIVED));
    assertNull(client.getAttributes().get(RpcxAttributes.STREAM_MESSAGES_SENT));
    SpanData server = spansByRole.get(SpanKind.SERVER + " back/words");
    assertEquals(5L, server.getAttributes().get(RpcxAttributes.STREAM_MESSAGES_SENT));
    assertNull(server.getAttributes().get(RpcxAttributes.STREAM_MESSAGES_RECEIVED));
    SpanData unary = spansByRole.get(SpanKind.CLIENT + " back/look");
    assertNull(unary.getAttributes().get(RpcxAttributes.STREAM_MESSAGES_RECEIVED));
  }

  @Test
  void aCancelledStreamRecordsTheMessagesBeforeTheCancelOnBothSides() {
    Recorder<String> recorder = Recorder.cancellingAfter(3); // the server's credit: exactly 3
    clientOfB.create(Back.class).endless().subscribe(recorder);
    recorder.awaitItems(3);
    awaitPoint("rpc.client.responses_per_rpc", "back/endless", "CANCELLED", 3);
    HistogramPointData sent =
        awaitPoint("rpc.server.responses_per_rpc", "back/endless", "CANCELLED", 3);
    assertEquals("CANCELLED", sent.getAttributes().get(RpcxAttributes.ERROR_TYPE));
  }

  @Test
  void aFailedStreamRecordsTheMessagesBeforeTheFailureOnBothSides() throws Exception {
    Recorder<String> recorder = new Recorder<>(Long.MAX_VALUE);
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      clientOfB.create(Back.class).wordsThenFail(4).subscribe(recorder);
      assertInstanceOf(RemoteFailureException.class, recorder.awaitEnd());
      logs.assertMatching(
          Level.WARN,
          "WARN back/wordsThenFail threw java\\.lang\\.IllegalStateException: no more words"
              + " \\(for /127\\.0\\.0\\.1:\\d+\\) \\[java\\.lang\\.IllegalStateException: no more words\\]");
    }
    awaitPoint("rpc.client.responses_per_rpc", "back/wordsThenFail", "REMOTE_FAILURE", 4);
    awaitPoint("rpc.server.responses_per_rpc", "back/wordsThenFail", "REMOTE_FAILURE", 4);
    SpanData server =
        awaitSpans(2).stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().get();
    assertEquals(4L, server.getAttributes().get(RpcxAttributes.STREAM_MESSAGES_SENT));
  }

  /** Waits for the point of one call whose sum is {@code sum}: the server records it at its end. */
  private HistogramPointData awaitPoint(String name, String method, String status, double sum) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Collection<MetricData> collected = metrics.collectAllMetrics();
      Optional<HistogramPointData> point = find(collected, name, method, status);
      if (point.isPresent() && point.get().getSum() == sum) {
        return point.get();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + " " + method + " " + status + ": " + collected);
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }

  private static HistogramPointData point(
      Collection<MetricData> metrics, String name, String method, String status) {
    return find(metrics, name, method, status)
        .orElseThrow(() -> new AssertionError(name + " " + method + " " + status + ": " + metrics));
  }

  private static Optional<HistogramPointData> find(
      Collection<MetricData> metrics, String name, String method, String status) {
    return metrics.stream()
        .filter(metric -> metric.getName().equals(name))
        .flatMap(metric -> metric.getHistogramData().getPoints().stream())
        .filter(
            p ->
                method.equals(p.getAttributes().get(RpcxAttributes.RPC_METHOD))
                    && status.equals(p.getAttributes().get(RpcxAttributes.RPC_STATUS_CODE)))
        .findFirst();
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
