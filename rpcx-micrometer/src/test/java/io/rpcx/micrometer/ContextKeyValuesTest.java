package io.rpcx.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.rpcx.core.StatusCode;
import io.rpcx.server.RefusedCall;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * RPCX's observation contexts keep their low-cardinality key values as the convention made them,
 * and still behave as Micrometer's own context does: later values replace earlier ones of the same
 * key, keys only in the earlier set stay, removed keys go.
 */
class ContextKeyValuesTest {
  private static final KeyValues AT_START = KeyValues.of("rpc.method", "greet", "server.port", "9000");
  private static final KeyValues AT_STOP =
      KeyValues.of("rpc.method", "greet", "rpc.status_code", "OK", "server.port", "9000");

  private static RpcxServerContext rpcxContext() {
    return new RpcxServerContext(
        new RefusedCall("greeter", "greet", true, StatusCode.OK, "test", "127.0.0.1:1"));
  }

  /** Runs {@code steps} on Micrometer's context and on RPCX's, and expects the same key values. */
  private static void sameAsMicrometer(Consumer<Observation.Context> steps) {
    Observation.Context micrometer = new Observation.Context();
    RpcxServerContext rpcx = rpcxContext();
    steps.accept(micrometer);
    steps.accept(rpcx);
    assertEquals(micrometer.getLowCardinalityKeyValues(), rpcx.getLowCardinalityKeyValues());
    assertEquals(micrometer.getAllKeyValues(), rpcx.getAllKeyValues());
    for (String key : List.of("rpc.method", "rpc.status_code", "server.port", "extra", "absent")) {
      assertEquals(
          micrometer.getLowCardinalityKeyValue(key), rpcx.getLowCardinalityKeyValue(key), key);
    }
  }

  @Test
  void theConventionsValuesAtStopAreKeptAsTheyAre() {
    RpcxServerContext context = rpcxContext();
    context.addLowCardinalityKeyValues(AT_START);
    context.addLowCardinalityKeyValues(AT_STOP);
    assertSame(AT_STOP, context.getLowCardinalityKeyValues());
  }

  @Test
  void valuesAtStopReplaceThoseAtStart() {
    sameAsMicrometer(
        context -> {
          context.addLowCardinalityKeyValues(AT_START);
          context.addLowCardinalityKeyValues(AT_STOP.and("server.port", "9001"));
        });
  }

  @Test
  void keysOnlyAtStartStay() {
    sameAsMicrometer(
        context -> {
          context.addLowCardinalityKeyValues(AT_START.and("extra", "1"));
          context.addLowCardinalityKeyValues(AT_STOP);
        });
  }

  @Test
  void singleValuesAndRemovalsAsMicrometers() {
    sameAsMicrometer(
        context -> {
          context.addLowCardinalityKeyValues(AT_STOP);
          context.addLowCardinalityKeyValue(KeyValue.of("extra", "1"));
          context.addLowCardinalityKeyValue(KeyValue.of("rpc.method", "other"));
          context.removeLowCardinalityKeyValue("server.port");
          context.removeLowCardinalityKeyValues("rpc.status_code", "absent");
          context.addHighCardinalityKeyValue(KeyValue.of("peer", "127.0.0.1:1"));
        });
  }

  /**
   * A tripwire for a Micrometer version that reads or fills its own map of key values past the
   * overridden methods: a whole observation with a filter, started and stopped by Micrometer,
   * leaves that map empty, and its handler sees the convention's and the filter's key values.
   */
  @Test
  void micrometersOwnMapStaysEmptyThroughAWholeObservation() throws ReflectiveOperationException {
    AtomicReference<KeyValues> seen = new AtomicReference<>();
    ObservationRegistry registry = ObservationRegistry.create();
    registry
        .observationConfig()
        .observationFilter(context -> context.addLowCardinalityKeyValue(KeyValue.of("zone", "a")))
        .observationHandler(
            new ObservationHandler<>() {
              @Override
              public boolean supportsContext(Observation.Context context) {
                return true;
              }

              @Override
              public void onStop(Observation.Context context) {
                seen.set(context.getLowCardinalityKeyValues());
              }
            });
    RpcxServerContext context = rpcxContext();
    Observation.createNotStarted(
            null, DefaultRpcxServerObservationConvention.INSTANCE, () -> context, registry)
        .start()
        .stop();

    assertEquals("a", seen.get().stream().filter(v -> v.getKey().equals("zone")).findFirst()
        .orElseThrow().getValue());
    assertTrue(seen.get().stream().anyMatch(v -> v.getKey().equals("rpc.method")), seen.get().toString());
    Field map = Observation.Context.class.getDeclaredField("lowCardinalityKeyValues");
    map.setAccessible(true);
    assertEquals(Map.of(), map.get(context), "Micrometer's own map of low-cardinality key values");
  }

  @Test
  void nothingAddedIsNothing() {
    sameAsMicrometer(context -> context.addLowCardinalityKeyValues(KeyValues.empty()));
  }
}
