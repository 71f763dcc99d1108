package io.rpcx.opentelemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.server.CallInfo;
import io.rpcx.server.RefusalListener;
import io.rpcx.server.RefusedCall;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.server.ServerStats;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Traces and measures every call a server serves or refuses, with the OpenTelemetry API: a server
 * span continuing the client's trace from the call's metadata (a malformed {@code traceparent}
 * starts a new trace), current while the later interceptors and the implementation run, and the
 * histogram {@value RpcxAttributes#SERVER_CALL_DURATION} in seconds. A stream call
 * (docs/STREAMING.md) also records, when it ends, the messages it received and sent: in the
 * histograms {@value RpcxAttributes#SERVER_REQUESTS_PER_RPC} and {@value
 * RpcxAttributes#SERVER_RESPONSES_PER_RPC} (with the duration's attributes) and as the span's
 * {@code rpcx.stream.messages.received} and {@code rpcx.stream.messages.sent}, each for the
 * directions its method streams.
 *
 * <pre>{@code
 * RpcxServer.Builder builder = RpcxServer.builder().port(9000).service(new OrdersImpl());
 * RpcxServer server = RpcxServerTelemetry.instrument(builder, openTelemetry).build().start();
 * }</pre>
 */
public final class RpcxServerTelemetry implements ServerInterceptor, RefusalListener {
  private static final TextMapGetter<CallInfo> GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(CallInfo call) {
          return call.metadata().keySet();
        }

        @Override
        public String get(CallInfo call, String key) {
          return call == null ? null : call.metadata().get(RpcxAttributes.metadataKey(key));
        }
      };

  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final DoubleHistogram duration;
  private final LongHistogram requestsPerCall;
  private final LongHistogram responsesPerCall;

  private RpcxServerTelemetry(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer(RpcxAttributes.SCOPE);
    this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    Meter meter = openTelemetry.getMeter(RpcxAttributes.SCOPE);
    this.duration =
        meter
            .histogramBuilder(RpcxAttributes.SERVER_CALL_DURATION)
            .setUnit("s")
            .setDescription("Duration of the RPCX calls a server served or refused")
            .setExplicitBucketBoundariesAdvice(RpcxAttributes.BUCKETS)
            .build();
    this.requestsPerCall =
        RpcxAttributes.messagesPerCall(
            meter,
            RpcxAttributes.SERVER_REQUESTS_PER_RPC,
            "Messages a server received per RPCX call with a stream argument");
    this.responsesPerCall =
        RpcxAttributes.messagesPerCall(
            meter,
            RpcxAttributes.SERVER_RESPONSES_PER_RPC,
            "Messages a server sent per RPCX call with a stream result");
  }

  /** An interceptor and refusal listener reporting to {@code openTelemetry}. */
  public static RpcxServerTelemetry create(OpenTelemetry openTelemetry) {
    return new RpcxServerTelemetry(Objects.requireNonNull(openTelemetry, "openTelemetry"));
  }

  /**
   * Adds the instrumentation to {@code builder}: as an interceptor (add it before any other, so
   * that what they refuse is traced too) and a refusal listener.
   */
  public static RpcxServer.Builder instrument(
      RpcxServer.Builder builder, OpenTelemetry openTelemetry) {
    RpcxServerTelemetry telemetry = create(openTelemetry);
    return builder.intercept(telemetry).refusalListener(telemetry);
  }

  @Override
  @SuppressWarnings("try") // the scopes are open while the rest of the chain runs
  public CompletionStage<Object> intercept(CallInfo call, Next next) throws Exception {
    long start = System.nanoTime();
    Context parent = propagator.extract(Context.root(), call, GETTER);
    String method = call.method().fullName();
    Span span =
        tracer
            .spanBuilder(method)
            .setSpanKind(SpanKind.SERVER)
            .setParent(parent)
            .setAttribute(RpcxAttributes.RPC_SYSTEM_NAME, RpcxAttributes.SYSTEM)
            .setAttribute(RpcxAttributes.RPC_METHOD, method)
            .setAttribute(RpcxAttributes.NETWORK_PEER_ADDRESS, call.remoteAddress())
            .startSpan();
    Context served = parent.with(span);
    CompletionStage<Object> stage;
    try (Scope scope = served.makeCurrent();
        RpcxContext.Scope rpcx = call.context().with(ServedContext.KEY, served).attach()) {
      stage = next.proceed();
    } catch (RuntimeException | Error e) {
      end(call, span, method, start, e);
      throw e;
    }
    return stage.whenComplete((result, failure) -> end(call, span, method, start, failure));
  }

  @Override
  public void onRefused(RefusedCall call) {
    String method =
        call.isMethodKnown() ? call.service() + "/" + call.method() : RpcxAttributes.OTHER;
    Span span =
        tracer
            .spanBuilder(method)
            .setSpanKind(SpanKind.SERVER)
            .setParent(Context.root())
            .setAttribute(RpcxAttributes.RPC_SYSTEM_NAME, RpcxAttributes.SYSTEM)
            .setAttribute(RpcxAttributes.RPC_METHOD, method)
            .setAttribute(RpcxAttributes.NETWORK_PEER_ADDRESS, call.remoteAddress())
            .startSpan();
    Attributes attributes = attributes(method, call.status().name(), true);
    span.setAllAttributes(attributes).setStatus(StatusCode.ERROR, call.reason()).end();
    duration.record(0, attributes);
  }

  private void end(CallInfo call, Span span, String method, long start, Throwable failure) {
    String status = "OK";
    if (failure != null) {
      Throwable cause = failure;
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof RpcxException) {
        status = ((RpcxException) cause).status().name();
      } else {
        // What the implementation threw (RPCX hands it over wrapped) or an interceptor's bug:
        // either way the client is told REMOTE_FAILURE.
        status = io.rpcx.core.StatusCode.REMOTE_FAILURE.name();
        if (cause.getCause() != null) {
          cause = cause.getCause();
        }
      }
      span.recordException(cause);
      span.setStatus(StatusCode.ERROR, String.valueOf(cause.getMessage()));
    }
    Attributes attributes = attributes(method, status, failure != null);
    span.setAllAttributes(attributes);
    MethodDescriptor.Shape shape = call.method().shape();
    if (shape.clientStreams()) {
      long received = call.streamMessagesReceived();
      requestsPerCall.record(received, attributes);
      span.setAttribute(RpcxAttributes.STREAM_MESSAGES_RECEIVED, received);
    }
    if (shape.serverStreams()) {
      long sent = call.streamMessagesSent();
      responsesPerCall.record(sent, attributes);
      span.setAttribute(RpcxAttributes.STREAM_MESSAGES_SENT, sent);
    }
    span.end();
    duration.record((System.nanoTime() - start) / 1e9, attributes);
  }

  private static Attributes attributes(String method, String status, boolean failed) {
    AttributesBuilder attributes =
        Attributes.builder()
            .put(RpcxAttributes.RPC_SYSTEM_NAME, RpcxAttributes.SYSTEM)
            .put(RpcxAttributes.RPC_METHOD, method)
            .put(RpcxAttributes.RPC_STATUS_CODE, status);
    if (failed) {
      attributes.put(RpcxAttributes.ERROR_TYPE, status);
    }
    return attributes.build();
  }

  /**
   * Reports {@code server}'s gauges and counters to {@code openTelemetry}'s meter: {@code
   * rpcx.server.connections.open}, {@code rpcx.server.connections.handshaking}, {@code
   * rpcx.server.connections.refused}, {@code rpcx.server.calls.active}, {@code
   * rpcx.server.calls.queued} and {@code rpcx.server.calls.refused}. Closing the result stops
   * reporting them.
   */
  public static AutoCloseable registerGauges(RpcxServer server, OpenTelemetry openTelemetry) {
    ServerStats stats = server.stats();
    Meter meter = openTelemetry.getMeter(RpcxAttributes.SCOPE);
    List<AutoCloseable> instruments =
        List.of(
            meter
                .gaugeBuilder("rpcx.server.connections.open")
                .ofLongs()
                .setDescription("Client connections open now")
                .buildWithCallback(m -> m.record(stats.openConnections())),
            meter
                .gaugeBuilder("rpcx.server.connections.handshaking")
                .ofLongs()
                .setDescription("Client connections accepted and not yet through their handshake")
                .buildWithCallback(m -> m.record(stats.handshakingConnections())),
            meter
                .counterBuilder("rpcx.server.connections.refused")
                .setDescription(
                    "Connections refused: too many in their handshake, or over the limit")
                .buildWithCallback(m -> m.record(stats.refusedConnections())),
            meter
                .gaugeBuilder("rpcx.server.calls.active")
                .ofLongs()
                .setDescription("Calls accepted and not yet answered")
                .buildWithCallback(m -> m.record(stats.callsInFlight())),
            meter
                .gaugeBuilder("rpcx.server.calls.queued")
                .ofLongs()
                .setDescription("Calls waiting for a worker thread")
                .buildWithCallback(m -> m.record(stats.queuedCalls())),
            meter
                .counterBuilder("rpcx.server.calls.refused")
                .setDescription("Calls refused before they ran")
                .buildWithCallback(m -> m.record(stats.refusedCalls())));
    return () -> {
      for (AutoCloseable instrument : instruments) {
        instrument.close();
      }
    };
  }
}
