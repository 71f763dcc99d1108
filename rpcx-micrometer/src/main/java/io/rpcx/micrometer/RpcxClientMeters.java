package io.rpcx.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.core.StatusCode;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Times every attempt of every call a client makes into a {@link MeterRegistry} directly, without
 * Micrometer Observation: the timer {@value RpcxKeys#CLIENT_CALL_DURATION} with the same tags as
 * {@link RpcxClientObservations} records (less Micrometer's own {@code error} tag), for a fraction
 * of its cost. Use it when a service wants metrics and no tracing; use one or the other, not both,
 * on one registry.
 *
 * <pre>{@code
 * RpcxClient client = RpcxClient.builder()
 *     .target("orders", 9000)
 *     .intercept(RpcxClientMeters.interceptor(meterRegistry))
 *     .build();
 * }</pre>
 *
 * <p>Each method, server and status has its timer, looked up once and kept; an attempt costs one
 * {@code Timer.record}.
 */
public final class RpcxClientMeters implements ClientInterceptor {
  private final MeterRegistry registry;
  private final MethodTable<Timer> timers = new MethodTable<>();

  private RpcxClientMeters(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** An interceptor timing every attempt into {@code registry}. */
  public static ClientInterceptor interceptor(MeterRegistry registry) {
    return new RpcxClientMeters(registry);
  }

  @Override
  public void onEnd(ClientCall call, CallResult result) {
    String server = call.server();
    timers
        .of(call)
        .get(server == null ? "" : server, result.status(), this::timer)
        .record(result.durationNanos(), TimeUnit.NANOSECONDS);
  }

  private Timer timer(String method, String server, StatusCode status) {
    return Timer.builder(RpcxKeys.CLIENT_CALL_DURATION)
        .description("Duration of client call attempts")
        .tags(tags(RpcTags.client(method, server, status)))
        .register(registry);
  }

  /** Micrometer tags of the same keys and values. */
  static Tags tags(KeyValues values) {
    Tags tags = Tags.empty();
    for (KeyValue value : values) {
      tags = tags.and(value.getKey(), value.getValue());
    }
    return tags;
  }
}
