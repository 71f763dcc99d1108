package io.rpcx.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.core.MethodDescriptor;
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
 * <p>A stream call (docs/STREAMING.md) also adds the messages it sent and received to the counters
 * {@value RpcxKeys#CLIENT_STREAM_MESSAGES_SENT} and {@value
 * RpcxKeys#CLIENT_STREAM_MESSAGES_RECEIVED} (those of the directions its method streams), with the
 * timer's tags, when it ends. Each method,
 * server and status has its timer and counters, looked up once and kept; an attempt costs one
 * {@code Timer.record}, and a stream call's end one increment per direction.
 */
public final class RpcxClientMeters implements ClientInterceptor {
  private final MeterRegistry registry;
  private final MethodTable<CallMeters> meters = new MethodTable<>();

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
    MethodValues<CallMeters> method = meters.of(call);
    CallMeters ended = method.get(server == null ? "" : server, result.status(), this::meters);
    ended.timer().record(result.durationNanos(), TimeUnit.NANOSECONDS);
    MethodDescriptor.Shape shape = call.method().shape();
    if (shape.isStream()) {
      ended.countMessages(
          shape.clientStreams(),
          call.streamMessagesSent(),
          shape.serverStreams(),
          call.streamMessagesReceived());
    }
  }

  private CallMeters meters(String method, String server, StatusCode status) {
    return new CallMeters(
        registry,
        tags(RpcTags.client(method, server, status)),
        RpcxKeys.CLIENT_CALL_DURATION,
        "Duration of client call attempts",
        RpcxKeys.CLIENT_STREAM_MESSAGES_SENT,
        RpcxKeys.CLIENT_STREAM_MESSAGES_RECEIVED);
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
