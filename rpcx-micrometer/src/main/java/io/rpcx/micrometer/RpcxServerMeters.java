package io.rpcx.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.StatusCode;
import io.rpcx.server.CallInfo;
import io.rpcx.server.RefusalListener;
import io.rpcx.server.RefusedCall;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptor;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Times every call a server serves or refuses into a {@link MeterRegistry} directly, without
 * Micrometer Observation: the timer {@value RpcxKeys#SERVER_CALL_DURATION} with the same tags as
 * {@link RpcxServerObservations} records (less Micrometer's own {@code error} tag), for a fraction
 * of its cost. Use it when a service wants metrics and no tracing; use one or the other, not both,
 * on one registry.
 *
 * <pre>{@code
 * RpcxServer server = RpcxServerMeters.instrument(RpcxServer.builder().port(9000), meterRegistry)
 *     .scan("com.acme.orders")
 *     .build()
 *     .start();
 * }</pre>
 *
 * <p>The timer starts when the first interceptor runs; a refused call is recorded with its status
 * and a duration of zero. A stream call (docs/STREAMING.md) also adds the messages it sent and
 * received to the counters {@value RpcxKeys#SERVER_STREAM_MESSAGES_SENT} and {@value
 * RpcxKeys#SERVER_STREAM_MESSAGES_RECEIVED} (those of the directions its method streams), with the
 * timer's tags, when it ends. Each method and status has its timer and counters, looked up once and
 * kept.
 */
public final class RpcxServerMeters implements ServerInterceptor, RefusalListener {
  private final MeterRegistry registry;
  private static final Logger logger = LoggerFactory.getLogger(RpcxServerMeters.class);

  private final MethodTable<CallMeters> meters = new MethodTable<>();
  private volatile boolean failureLogged;

  private RpcxServerMeters(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /**
   * Adds to {@code builder} an interceptor (before any added after this, so that the calls they
   * refuse are timed too) and a refusal listener timing into {@code registry}.
   */
  public static RpcxServer.Builder instrument(RpcxServer.Builder builder, MeterRegistry registry) {
    RpcxServerMeters meters = new RpcxServerMeters(registry);
    return builder.intercept(meters).refusalListener(meters);
  }

  @Override
  public CompletionStage<Object> intercept(CallInfo call, Next next) throws Exception {
    long start = System.nanoTime();
    CompletionStage<Object> stage;
    try {
      stage = next.proceed();
    } catch (RuntimeException | Error e) {
      long nanos = System.nanoTime() - start;
      record(call.method().service(), call.method().method(), true, RpcTags.status(e), nanos, call);
      throw e;
    }
    return stage.whenComplete(
        (result, failure) ->
            record(
                call.method().service(),
                call.method().method(),
                true,
                failure == null ? StatusCode.OK : RpcTags.status(failure),
                System.nanoTime() - start,
                call));
  }

  @Override
  public void onRefused(RefusedCall call) {
    record(call.service(), call.method(), call.isMethodKnown(), call.status(), 0, null);
  }

  /**
   * Records one call: {@code served} is the call that ran (its stream messages are counted), null
   * for one refused before it ran. A registry that fails is logged, never allowed to fail the call.
   */
  private void record(
      String service,
      String method,
      boolean published,
      StatusCode status,
      long nanos,
      CallInfo served) {
    try {
      MethodValues<CallMeters> values = meters.of(service, method, published);
      CallMeters ended = values.get("", status, this::meters);
      ended.timer().record(nanos, TimeUnit.NANOSECONDS);
      if (served != null) {
        MethodDescriptor.Shape shape = served.method().shape();
        if (shape.isStream()) {
          ended.countMessages(
              shape.serverStreams(),
              served.streamMessagesSent(),
              shape.clientStreams(),
              served.streamMessagesReceived());
        }
      }
    } catch (RuntimeException e) {
      if (!failureLogged) {
        failureLogged = true;
        logger.warn("Cannot record {} of {}/{}; not said again", status, service, method, e);
      }
    }
  }

  private CallMeters meters(String method, String server, StatusCode status) {
    return new CallMeters(
        registry,
        RpcxClientMeters.tags(RpcTags.server(method, status)),
        RpcxKeys.SERVER_CALL_DURATION,
        "Duration of served calls",
        RpcxKeys.SERVER_STREAM_MESSAGES_SENT,
        RpcxKeys.SERVER_STREAM_MESSAGES_RECEIVED);
  }
}
