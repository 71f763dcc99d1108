package io.rpcx.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.rpcx.client.ClientCall;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.server.CallInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Counts the messages of stream calls (docs/STREAMING.md) observed by {@link
 * RpcxClientObservations} and {@link RpcxServerObservations} into a {@link MeterRegistry}: when a
 * stream call's observation stops, its messages are added to {@value
 * RpcxKeys#CLIENT_STREAM_MESSAGES_SENT} and {@value RpcxKeys#CLIENT_STREAM_MESSAGES_RECEIVED}, or
 * {@value RpcxKeys#SERVER_STREAM_MESSAGES_SENT} and {@value
 * RpcxKeys#SERVER_STREAM_MESSAGES_RECEIVED} (those of the directions its method streams), tagged
 * with the observation's low-cardinality key values, as the call's timer is. A unary call costs a
 * lookup of its method, kept from the first call. {@link RpcxClientMeters} and {@link
 * RpcxServerMeters} count the same without Observation.
 *
 * <pre>{@code
 * observationRegistry.observationConfig()
 *     .observationHandler(new DefaultMeterObservationHandler(meterRegistry))
 *     .observationHandler(new RpcxStreamMessagesHandler(meterRegistry));
 * }</pre>
 *
 * <p>Not a {@code MeterObservationHandler}: Spring Boot lets only the first of those that supports
 * a context handle it, and this one comes beside the timer's, not instead of it. Thread-safe.
 */
public final class RpcxStreamMessagesHandler implements ObservationHandler<Observation.Context> {
  private final MeterRegistry registry;

  /** A handler counting into {@code registry}. */
  public RpcxStreamMessagesHandler(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public boolean supportsContext(Observation.Context context) {
    return RpcTags.isRpcxCall(context);
  }

  @Override
  public void onStop(Observation.Context context) {
    if (context instanceof RpcxClientContext client) {
      ClientCall call = client.call();
      MethodDescriptor.Shape shape = call.method().shape();
      if (shape.isStream()) {
        count(
            context,
            RpcxKeys.CLIENT_STREAM_MESSAGES_SENT,
            shape.clientStreams(),
            call.streamMessagesSent(),
            RpcxKeys.CLIENT_STREAM_MESSAGES_RECEIVED,
            shape.serverStreams(),
            call.streamMessagesReceived());
      }
    } else if (context instanceof RpcxServerContext served) {
      CallInfo call = served.getCarrier(); // null for a refused call, which streamed nothing
      if (call == null) {
        return;
      }
      MethodDescriptor.Shape shape = call.method().shape();
      if (shape.isStream()) {
        count(
            context,
            RpcxKeys.SERVER_STREAM_MESSAGES_SENT,
            shape.serverStreams(),
            call.streamMessagesSent(),
            RpcxKeys.SERVER_STREAM_MESSAGES_RECEIVED,
            shape.clientStreams(),
            call.streamMessagesReceived());
      }
    }
  }

  private void count(
      Observation.Context context,
      String sentName,
      boolean sends,
      long sent,
      String receivedName,
      boolean receives,
      long received) {
    List<Tag> tags = new ArrayList<>();
    for (KeyValue value : context.getLowCardinalityKeyValues()) {
      tags.add(Tag.of(value.getKey(), value.getValue()));
    }
    if (sends) {
      CallMeters.counter(registry, sentName, tags).increment(sent);
    }
    if (receives) {
      CallMeters.counter(registry, receivedName, tags).increment(received);
    }
  }
}
