package io.rpcx.benchmarks.rpcx;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationRegistry.ObservationConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.handler.TracingAwareMeterObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.rpcx.micrometer.RpcxMeterObservationHandler;
import io.rpcx.micrometer.RpcxStreamMessagesHandler;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * How calls are observed in a benchmark trial, as a production service would observe them: a
 * Prometheus meter registry fed by Micrometer Observation, and for tracing, Micrometer Tracing on
 * the OpenTelemetry SDK with W3C propagation and a batch span processor whose exporter counts the
 * spans and drops them (the cost measured is RPCX's instrumentation, not a collector's network).
 * The observation handlers are grouped as Spring Boot 4 groups the beans the starter and Boot
 * register: the meter handlers first-matching, {@link RpcxMeterObservationHandler} first (wrapped
 * in {@link TracingAwareMeterObservationHandler} when tracing is on, as Boot wraps every meter
 * handler then), the tracing handlers first-matching, and {@link RpcxStreamMessagesHandler} on its
 * own.
 */
public enum Observability {
  /** Nothing observed: RPCX as it runs without interceptors. */
  NONE(""),
  /** Client and server call timers straight into the meter registry (rpcx-micrometer's meters). */
  METERS("-meters"),
  /**
   * Client and server call timers through Micrometer Observation, gauges: the Spring Boot starter's
   * default wiring.
   */
  METRICS("-metrics"),
  /**
   * As {@link #METRICS} with Micrometer's {@link DefaultMeterObservationHandler} alone timing the
   * calls (the wiring before {@link RpcxMeterObservationHandler}, and that of an application which
   * registers only Micrometer's handler).
   */
  METRICS_GENERIC("-metrics-generic"),
  /** Metrics, and a client and a server span per call, all sampled. */
  TRACING("-tracing"),
  /** Metrics, and tracing whose sampler drops every trace (the common production ratio's floor). */
  TRACING_UNSAMPLED("-tracing-unsampled");

  private final String suffix;

  Observability(String suffix) {
    this.suffix = suffix;
  }

  /** The suffix of the system name: {@code rpcx-metrics}, for example. */
  String suffix() {
    return suffix;
  }

  /** The registry the trial's client and server report to; {@code null} for {@link #NONE}. */
  Registries create() {
    if (this == NONE) {
      return null;
    }
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    ObservationRegistry observations = ObservationRegistry.create();
    SdkTracerProvider tracerProvider = null;
    ObservationConfig config = observations.observationConfig();
    if (this == METERS) {
      // No observation handler: the timers are recorded by RpcxClientMeters/RpcxServerMeters.
    } else if (this == METRICS_GENERIC) {
      config.observationHandler(new DefaultMeterObservationHandler(meters));
      config.observationHandler(new RpcxStreamMessagesHandler(meters));
    } else if (this == METRICS) {
      config.observationHandler(
          new FirstMatchingCompositeObservationHandler(
              new RpcxMeterObservationHandler(meters), new DefaultMeterObservationHandler(meters)));
      config.observationHandler(new RpcxStreamMessagesHandler(meters));
    } else {
      tracerProvider =
          SdkTracerProvider.builder()
              .setSampler(this == TRACING ? Sampler.alwaysOn() : Sampler.alwaysOff())
              .addSpanProcessor(BatchSpanProcessor.builder(new CountingExporter()).build())
              .build();
      io.opentelemetry.api.trace.Tracer otelTracer = tracerProvider.get("rpcx-benchmarks");
      OtelCurrentTraceContext current = new OtelCurrentTraceContext();
      OtelTracer tracer =
          new OtelTracer(
              otelTracer,
              current,
              event -> {},
              new OtelBaggageManager(current, List.of(), List.of()));
      OtelPropagator propagator =
          new OtelPropagator(
              ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otelTracer);
      config.observationHandler(
          new FirstMatchingCompositeObservationHandler(
              new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
              new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
              new DefaultTracingObservationHandler(tracer)));
      config.observationHandler(
          new FirstMatchingCompositeObservationHandler(
              new TracingAwareMeterObservationHandler<>(
                  new RpcxMeterObservationHandler(meters), tracer),
              new TracingAwareMeterObservationHandler<>(
                  new DefaultMeterObservationHandler(meters), tracer)));
      config.observationHandler(new RpcxStreamMessagesHandler(meters));
    }
    return new Registries(meters, observations, tracerProvider);
  }

  /** What one trial reports to. */
  record Registries(
      PrometheusMeterRegistry meters,
      ObservationRegistry observations,
      SdkTracerProvider tracerProvider) {

    void close() {
      if (tracerProvider != null) {
        tracerProvider.close();
      }
      meters.close();
    }
  }

  /** Counts exported spans and drops them. */
  private static final class CountingExporter implements SpanExporter {
    private final LongAdder exported = new LongAdder();

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
      exported.add(spans.size());
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
