package io.rpcx.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.rpcx.core.RpcxContext;
import io.rpcx.server.CallInfo;
import io.rpcx.server.RefusalListener;
import io.rpcx.server.RefusedCall;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptor;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Observes every call a server serves or refuses: a timer {@value RpcxKeys#SERVER_CALL_DURATION}
 * and, with Micrometer Tracing, a server span continuing the client's trace from the call's
 * metadata. The observation is current while the later interceptors and the implementation run, so
 * calls they make are its children.
 *
 * <pre>{@code
 * RpcxServer.Builder builder = RpcxServer.builder().port(9000).service(new OrdersImpl());
 * RpcxServerObservations.instrument(builder, observationRegistry);
 * RpcxServer server = builder.build().start();
 * new RpcxServerMetrics(server).bindTo(meterRegistry);
 * }</pre>
 *
 * <p>The timer starts when the first interceptor runs: the time a call waited for a worker thread
 * is not in it (see {@code rpcx.server.calls.queued}). Refused calls are recorded with no duration
 * worth the name and the status they were refused with. A stream call is one observation until it
 * ends; the default convention tags its span with the messages it sent and received, and {@link
 * RpcxStreamMessagesHandler} counts them.
 */
public final class RpcxServerObservations implements ServerInterceptor, RefusalListener {
  private final ObservationRegistry registry;
  private final RpcxServerObservationConvention convention;

  private RpcxServerObservations(
      ObservationRegistry registry, RpcxServerObservationConvention convention) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.convention = convention;
  }

  /**
   * Adds the observations to {@code builder}: an interceptor (add it before any other, so that what
   * they refuse is observed too) and a refusal listener.
   */
  public static RpcxServer.Builder instrument(
      RpcxServer.Builder builder, ObservationRegistry registry) {
    return instrument(builder, registry, null);
  }

  /**
   * As {@link #instrument(RpcxServer.Builder, ObservationRegistry)}, named by {@code convention}.
   */
  public static RpcxServer.Builder instrument(
      RpcxServer.Builder builder,
      ObservationRegistry registry,
      RpcxServerObservationConvention convention) {
    RpcxServerObservations observations = new RpcxServerObservations(registry, convention);
    return builder.intercept(observations).refusalListener(observations);
  }

  @Override
  @SuppressWarnings("try") // the scopes are open while the rest of the chain runs
  public CompletionStage<Object> intercept(CallInfo call, Next next) throws Exception {
    Observation observation =
        Observation.createNotStarted(
            convention,
            DefaultRpcxServerObservationConvention.INSTANCE,
            () -> new RpcxServerContext(call),
            registry);
    if (observation.isNoop()) { // no handler, or a predicate turned it off: nothing to start
      return next.proceed();
    }
    RpcxServerContext context = (RpcxServerContext) observation.getContext();
    observation.start();
    CompletionStage<Object> stage;
    try (Observation.Scope scope = observation.openScope();
        RpcxContext.Scope served =
            call.context().with(ServedObservation.KEY, observation).attach()) {
      stage = next.proceed();
    } catch (RuntimeException | Error e) {
      end(observation, context, e);
      throw e;
    }
    return stage.whenComplete((result, failure) -> end(observation, context, failure));
  }

  @Override
  public void onRefused(RefusedCall call) {
    RpcxServerContext context = new RpcxServerContext(call);
    Observation.createNotStarted(
            convention, DefaultRpcxServerObservationConvention.INSTANCE, () -> context, registry)
        .start()
        .stop();
  }

  private static void end(Observation observation, RpcxServerContext context, Throwable failure) {
    if (failure != null) {
      context.status(RpcTags.status(failure));
      observation.error(RpcTags.cause(failure));
    }
    observation.stop();
  }
}
