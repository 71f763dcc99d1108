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
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.ClientStats;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxContext;
import java.util.List;
import java.util.Objects;

/**
 * Traces and measures every attempt of every call a client makes, with the OpenTelemetry API: a
 * client span named {@code service/method} whose context travels to the server in the call's
 * metadata, and the histogram {@value RpcxAttributes#CLIENT_CALL_DURATION} in seconds. A stream
 * call (docs/STREAMING.md) also records, when it ends, the messages it sent and received: in the
 * histograms {@value RpcxAttributes#CLIENT_REQUESTS_PER_RPC} and {@value
 * RpcxAttributes#CLIENT_RESPONSES_PER_RPC} (with the duration's attributes) and as the span's
 * {@code rpcx.stream.messages.sent} and {@code rpcx.stream.messages.received}, each for the
 * directions its method streams.
 *
 * <pre>{@code
 * RpcxClient client = RpcxClient.builder()
 *     .target("orders", 9000)
 *     .intercept(RpcxClientTelemetry.create(openTelemetry))
 *     .build();
 * AutoCloseable gauges = RpcxClientTelemetry.registerGauges(client, openTelemetry);
 * }</pre>
 *
 * <p>The parent of a call's span is the current span, or, for a call made on another thread than
 * the one serving a call, the served call's context carried by {@link RpcxContext#wrap}.
 */
public final class RpcxClientTelemetry implements ClientInterceptor {
  private static final RpcxContext.Key<Span> SPAN =
      RpcxContext.Key.of("rpcx-opentelemetry attempt", Span.class);
  private static final TextMapSetter<ClientCall> SETTER =
      (call, key, value) -> call.putMetadata(RpcxAttributes.metadataKey(key), value);

  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final DoubleHistogram duration;
  private final LongHistogram requestsPerCall;
  private final LongHistogram responsesPerCall;

  private RpcxClientTelemetry(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer(RpcxAttributes.SCOPE);
    this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    Meter meter = openTelemetry.getMeter(RpcxAttributes.SCOPE);
    this.duration =
        meter
            .histogramBuilder(RpcxAttributes.CLIENT_CALL_DURATION)
            .setUnit("s")
            .setDescription("Duration of the attempts of RPCX calls, as the client measures them")
            .setExplicitBucketBoundariesAdvice(RpcxAttributes.BUCKETS)
            .build();
    this.requestsPerCall =
        RpcxAttributes.messagesPerCall(
            meter,
            RpcxAttributes.CLIENT_REQUESTS_PER_RPC,
            "Messages a client sent per RPCX call with a stream argument");
    this.responsesPerCall =
        RpcxAttributes.messagesPerCall(
            meter,
            RpcxAttributes.CLIENT_RESPONSES_PER_RPC,
            "Messages a client received per RPCX call with a stream result");
  }

  /** An interceptor reporting to {@code openTelemetry}. */
  public static RpcxClientTelemetry create(OpenTelemetry openTelemetry) {
    return new RpcxClientTelemetry(Objects.requireNonNull(openTelemetry, "openTelemetry"));
  }

  @Override
  public void onStart(ClientCall call) {
    Context parent = Context.current();
    if (!Span.fromContext(parent).getSpanContext().isValid()) {
      Context served = call.context().get(ServedContext.KEY);
      if (served != null) {
        parent = served;
      }
    }
    AttributesBuilder attributes = Attributes.builder();
    common(call, attributes);
    Span span =
        tracer
            .spanBuilder(call.method().fullName())
            .setSpanKind(SpanKind.CLIENT)
            .setParent(parent)
            .setAllAttributes(attributes.build())
            .startSpan();
    propagator.inject(parent.with(span), call, SETTER);
    call.attach(SPAN, span);
  }

  @Override
  public void onEnd(ClientCall call, CallResult result) {
    AttributesBuilder attributes = Attributes.builder();
    common(call, attributes);
    attributes.put(RpcxAttributes.RPC_STATUS_CODE, result.status().name());
    if (!result.isSuccess()) {
      attributes.put(RpcxAttributes.ERROR_TYPE, result.status().name());
    }
    Attributes ended = attributes.build();
    duration.record(result.durationNanos() / 1e9, ended);
    MethodDescriptor.Shape shape = call.method().shape();
    long sent = 0;
    long received = 0;
    if (shape.clientStreams()) {
      sent = call.streamMessagesSent();
      requestsPerCall.record(sent, ended);
    }
    if (shape.serverStreams()) {
      received = call.streamMessagesReceived();
      responsesPerCall.record(received, ended);
    }
    Span span = call.attachment(SPAN);
    if (span != null) {
      span.setAllAttributes(ended);
      if (shape.clientStreams()) {
        span.setAttribute(RpcxAttributes.STREAM_MESSAGES_SENT, sent);
      }
      if (shape.serverStreams()) {
        span.setAttribute(RpcxAttributes.STREAM_MESSAGES_RECEIVED, received);
      }
      if (!result.isSuccess()) {
        span.setStatus(StatusCode.ERROR, result.failure().getMessage());
      }
      span.end();
    }
  }

  private static void common(ClientCall call, AttributesBuilder attributes) {
    attributes
        .put(RpcxAttributes.RPC_SYSTEM_NAME, RpcxAttributes.SYSTEM)
        .put(RpcxAttributes.RPC_METHOD, call.method().fullName());
    String server = call.server();
    int colon = server == null ? -1 : server.lastIndexOf(':');
    if (colon > 0) {
      attributes.put(RpcxAttributes.SERVER_ADDRESS, server.substring(0, colon));
      try {
        attributes.put(RpcxAttributes.SERVER_PORT, Long.parseLong(server.substring(colon + 1)));
      } catch (NumberFormatException e) {
        // not host:port: leave the port out
      }
    }
  }

  /**
   * Reports {@code client}'s gauges and counters to {@code openTelemetry}'s meter: {@code
   * rpcx.client.calls.active}, {@code rpcx.client.connections.open}, {@code rpcx.client.retries}
   * and {@code rpcx.client.ejections}. Closing the result stops reporting them.
   */
  public static AutoCloseable registerGauges(RpcxClient client, OpenTelemetry openTelemetry) {
    ClientStats stats = client.stats();
    Meter meter = openTelemetry.getMeter(RpcxAttributes.SCOPE);
    List<AutoCloseable> instruments =
        List.of(
            meter
                .gaugeBuilder("rpcx.client.calls.active")
                .ofLongs()
                .setDescription("Calls sent and not yet answered")
                .buildWithCallback(m -> m.record(stats.callsInFlight())),
            meter
                .gaugeBuilder("rpcx.client.connections.open")
                .ofLongs()
                .setDescription("Connections to servers open now")
                .buildWithCallback(m -> m.record(stats.openConnections())),
            meter
                .counterBuilder("rpcx.client.retries")
                .setDescription("Attempts made again after a failure")
                .buildWithCallback(m -> m.record(stats.retries())),
            meter
                .counterBuilder("rpcx.client.ejections")
                .setDescription("Times a server was taken out of rotation")
                .buildWithCallback(m -> m.record(stats.ejections())));
    return () -> {
      for (AutoCloseable instrument : instruments) {
        instrument.close();
      }
    };
  }
}
