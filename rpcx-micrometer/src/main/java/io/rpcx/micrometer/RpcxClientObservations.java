package io.rpcx.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.core.RpcxContext;
import java.util.Objects;

/**
 * Observes every attempt of every call a client makes: a timer {@value
 * RpcxKeys#CLIENT_CALL_DURATION} and, with Micrometer Tracing, a client span whose trace context
 * travels to the server in the call's metadata ({@code traceparent}, {@code tracestate}, baggage).
 *
 * <pre>{@code
 * RpcxClient client = RpcxClient.builder()
 *     .target("orders", 9000)
 *     .intercept(RpcxClientObservations.interceptor(observationRegistry))
 *     .build();
 * new RpcxClientMetrics(client).bindTo(meterRegistry);
 * }</pre>
 *
 * <p>A stream call is one observation until it ends; the default convention then tags its span with
 * the messages it sent and received, and {@link RpcxStreamMessagesHandler} counts them.
 *
 * <p>The parent of a call's observation is the observation current on the calling thread, or, when
 * a call is made on another thread than the one serving a call, the served call's observation found
 * in its {@link RpcxContext} (carried by {@link RpcxContext#wrap} and {@link
 * RpcxContext#propagating}).
 */
public final class RpcxClientObservations implements ClientInterceptor {
  private static final RpcxContext.Key<Observation> OBSERVATION =
      RpcxContext.Key.of("rpcx-micrometer attempt", Observation.class);

  private final ObservationRegistry registry;
  private final RpcxClientObservationConvention convention;

  private RpcxClientObservations(
      ObservationRegistry registry, RpcxClientObservationConvention convention) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.convention = convention;
  }

  /** An interceptor recording into {@code registry} with the default convention. */
  public static ClientInterceptor interceptor(ObservationRegistry registry) {
    return new RpcxClientObservations(registry, null);
  }

  /** An interceptor recording into {@code registry}, named and tagged by {@code convention}. */
  public static ClientInterceptor interceptor(
      ObservationRegistry registry, RpcxClientObservationConvention convention) {
    return new RpcxClientObservations(registry, Objects.requireNonNull(convention, "convention"));
  }

  @Override
  public void onStart(ClientCall call) {
    Observation observation =
        Observation.createNotStarted(
            convention,
            DefaultRpcxClientObservationConvention.INSTANCE,
            () -> new RpcxClientContext(call),
            registry);
    if (observation.isNoop()) { // no handler, or a predicate turned it off: nothing to start
      return;
    }
    if (registry.getCurrentObservation() == null) {
      Observation served = call.context().get(ServedObservation.KEY);
      if (served != null) {
        observation.parentObservation(served);
      }
    }
    call.attach(OBSERVATION, observation.start());
  }

  @Override
  public void onEnd(ClientCall call, CallResult result) {
    Observation observation = call.attachment(OBSERVATION);
    if (observation == null) {
      return;
    }
    ((RpcxClientContext) observation.getContext()).setResponse(result);
    if (result.failure() != null) {
      observation.error(result.failure());
    }
    observation.stop();
  }
}
