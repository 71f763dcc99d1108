package io.rpcx.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RpcxMeterObservationHandler} makes the timers Micrometer's default handler makes, with the
 * same names, tags and counts, and no long-task timer; and an observation registry with no handler
 * starts nothing for a call.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RpcxMeterObservationHandlerTest {
  private RpcxServer server;
  private RpcxClient client;

  private void start(ObservationRegistry observations) {
    RpcxServer.Builder builder =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new Greeter.Impl());
    RpcxServerObservations.instrument(builder, observations);
    builder.intercept( // code in a served call signals an event on the call's observation
        (call, next) -> {
          Observation current = observations.getCurrentObservation();
          if (current != null) {
            current.event(Observation.Event.of("checked"));
          }
          return next.proceed();
        });
    server = builder.build().start();
    client =
        RpcxClient.builder()
            .target("127.0.0.1", server.port())
            .intercept(RpcxClientObservations.interceptor(observations))
            .build();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void theTimersAreThoseOfMicrometersHandlerLessTheLongTaskTimers() throws Exception {
    MeterRegistry byMicrometer = new SimpleMeterRegistry();
    MeterRegistry byRpcx = new SimpleMeterRegistry();
    ObservationRegistry observations = ObservationRegistry.create();
    observations
        .observationConfig()
        .observationHandler(new DefaultMeterObservationHandler(byMicrometer))
        .observationHandler(new RpcxMeterObservationHandler(byRpcx));
    start(observations);
    Greeter greeter = client.create(Greeter.class);
    assertEquals("hello ann", greeter.hello("ann"));
    assertEquals("hello bob", greeter.hello("bob"));
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      assertThrows(RemoteFailureException.class, () -> greeter.fail("boom"));
      logs.assertMatching(Level.WARN, "WARN greeter/fail threw java\\.lang\\.IllegalStateException.*");
    }
    assertThrows(
        NotFoundException.class, () -> client.create(Greeter.WithUnknownMethod.class).goodbye("x"));

    Map<String, Long> expected = awaitTimers(byMicrometer, 6); // 3 outcomes x 2 sides
    assertEquals(expected, awaitTimers(byRpcx, 6));
    assertEquals(
        counters(byMicrometer, "rpc.server.call.duration.checked"),
        counters(byRpcx, "rpc.server.call.duration.checked"),
        "events are counted as Micrometer's handler counts them");
    assertEquals(
        3.0,
        byRpcx.get("rpc.server.call.duration.checked").counters().stream()
            .mapToDouble(c -> c.count()).sum(),
        "the two hellos and the failure ran the interceptor");
    assertEquals(
        2L,
        expected.get(
            "rpc.server.call.duration[error=none, error.type=none, rpc.method=greeter/hello,"
                + " rpc.status_code=OK, rpc.system.name=rpcx]"),
        () -> "the timers: " + expected);
    assertTrue(
        byMicrometer.getMeters().stream().anyMatch(m -> m instanceof LongTaskTimer),
        "Micrometer's handler makes .active long-task timers");
    assertTrue(
        byRpcx.getMeters().stream().noneMatch(m -> m instanceof LongTaskTimer),
        () -> "RPCX's handler makes none: " + byRpcx.getMeters());
    Timer served =
        byRpcx.get("rpc.server.call.duration").tag("rpc.method", "greeter/hello").timer();
    assertTrue(served.totalTime(TimeUnit.NANOSECONDS) > 0, "a served call took time");
  }

  @Test
  void aRegistryWithoutHandlersStartsNothingAndTheCallsRun() {
    ObservationRegistry observations = ObservationRegistry.create();
    assertTrue(observations.isNoop());
    start(observations);
    assertEquals("hello ann", client.create(Greeter.class).hello("ann"));
    assertThrows(
        NotFoundException.class, () -> client.create(Greeter.WithUnknownMethod.class).goodbye("x"));
  }

  @Test
  void observationsAPredicateTurnsOffAreNotTimed() {
    MeterRegistry meters = new SimpleMeterRegistry();
    ObservationRegistry observations = ObservationRegistry.create();
    observations
        .observationConfig()
        .observationPredicate((name, context) -> !name.startsWith("rpc."))
        .observationHandler(new RpcxMeterObservationHandler(meters));
    start(observations);
    assertEquals("hello ann", client.create(Greeter.class).hello("ann"));
    assertTrue(meters.getMeters().isEmpty(), () -> "nothing timed: " + meters.getMeters());
  }

  /** Each counter named {@code name}, by its tags, and its count. */
  private static Map<String, Double> counters(MeterRegistry meters, String name) {
    Map<String, Double> counters = new TreeMap<>();
    meters.find(name).counters().forEach(c -> counters.put(c.getId().getTags().toString(), c.count()));
    return counters;
  }

  /** Each timer, by its name and tags, and its count, once {@code expected} timers exist. */
  private static Map<String, Long> awaitTimers(MeterRegistry meters, int expected) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Map<String, Long> timers = new TreeMap<>();
      for (Meter meter : meters.getMeters()) {
        if (meter instanceof Timer timer) {
          timers.put(
              meter.getId().getName() + meter.getId().getTags().toString().replace("tag(", "").replace(")", ""),
              timer.count());
        }
      }
      if (timers.size() == expected) {
        return timers;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + expected + " timers: " + timers);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
