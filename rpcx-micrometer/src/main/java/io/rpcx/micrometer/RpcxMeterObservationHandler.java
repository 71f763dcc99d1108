package io.rpcx.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * Times the observations of {@link RpcxClientObservations} and {@link RpcxServerObservations} into
 * a {@link MeterRegistry} as {@link DefaultMeterObservationHandler} would, at a fraction of its
 * cost: the same timer (the observation's name, its low-cardinality key values and Micrometer's
 * {@code error} tag), found once per name, key values and error and kept, where the default
 * handler converts the tags and looks the timer up on every call, and starts a long-task timer per
 * call besides. Calls in progress are the gauges {@code rpcx.client.calls.active} and {@code
 * rpcx.server.calls.active} ({@link RpcxClientMetrics}, {@link RpcxServerMetrics}) instead of the
 * {@code .active} long-task timers. Other observations it leaves to the handlers after it.
 *
 * <p>Put it first among the meter handlers, in a first-matching group with the default one:
 *
 * <pre>{@code
 * observations.observationConfig()
 *     .observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
 *         new RpcxMeterObservationHandler(meters),
 *         new DefaultMeterObservationHandler(meters)))
 *     .observationHandler(new RpcxStreamMessagesHandler(meters));
 * }</pre>
 *
 * <p>The Spring Boot starter registers it as a bean ordered first, and Spring Boot groups it so,
 * wrapping it for exemplars when tracing is on. Key values added by an {@code ObservationFilter}
 * or a custom convention are tags as with the default handler; at most {@value #MAX_TIMERS}
 * timers are kept (client key values include the server, which discovery may change for as long as
 * a client lives), and past that each is looked up in the registry per call. Thread-safe.
 */
public final class RpcxMeterObservationHandler
    implements MeterObservationHandler<Observation.Context> {
  /** Timers kept; past that, a call looks its timer up in the registry. */
  static final int MAX_TIMERS = 4096;

  private static final String NO_ERROR = "none";

  private final MeterRegistry registry;
  private final Clock clock;
  private final ConcurrentMap<TimerKey, Timer> timers = new ConcurrentHashMap<>();

  /** A handler timing into {@code registry}. */
  public RpcxMeterObservationHandler(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.clock = registry.config().clock();
  }

  @Override
  public boolean supportsContext(Observation.Context context) {
    return RpcTags.isRpcxCall(context);
  }

  @Override
  public void onStart(Observation.Context context) {
    long now = clock.monotonicTime();
    if (context instanceof RpcxClientContext client) {
      client.startedNanos(now);
    } else if (context instanceof RpcxServerContext server) {
      server.startedNanos(now);
    }
  }

  @Override
  public void onStop(Observation.Context context) {
    long started;
    if (context instanceof RpcxClientContext client) {
      started = client.startedNanos();
    } else if (context instanceof RpcxServerContext server) {
      started = server.startedNanos();
    } else {
      return; // a filter replaced the context: not one this handler started
    }
    long nanos = clock.monotonicTime() - started;
    Throwable error = context.getError();
    TimerKey key =
        new TimerKey(
            context.getName(),
            context.getLowCardinalityKeyValues(),
            error == null ? NO_ERROR : error.getClass().getSimpleName());
    Timer timer = timers.get(key);
    if (timer == null) {
      timer = key.register(registry);
      if (timers.size() < MAX_TIMERS) {
        timers.putIfAbsent(key, timer);
      }
    }
    timer.record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Counts an event of an observation (one that code running in a served call signalled on the
   * current observation, say) as Micrometer's handler does: the counter {@code name.event} with
   * the observation's low-cardinality key values.
   */
  @Override
  public void onEvent(Observation.Event event, Observation.Context context) {
    Counter.builder(context.getName() + "." + event.getName())
        .tags(RpcxClientMeters.tags(context.getLowCardinalityKeyValues()))
        .register(registry)
        .increment();
  }

  /** What tells one timer from another: its name and tags. */
  private record TimerKey(String name, KeyValues values, String error) {
    Timer register(MeterRegistry registry) {
      // Micrometer's handler adds its error tag last: it wins over a key value of the same name.
      return Timer.builder(name)
          .tags(RpcxClientMeters.tags(values).and("error", error))
          .register(registry);
    }
  }
}
