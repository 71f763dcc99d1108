package io.rpcx.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every call is timed on both sides under the OpenTelemetry RPC names and tags, refused calls
 * included, and the gauges show what the client and server are doing. A stream call's messages are
 * tags of its spans and, with {@link RpcxStreamMessagesHandler}, counters. All of it holds whichever
 * meter handler times the calls: Micrometer's {@link DefaultMeterObservationHandler}, or {@link
 * RpcxMeterObservationHandler} before it, as the Spring Boot starter wires them.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "timed by {0}")
@EnumSource(RpcxObservationsTest.Timing.class)
class RpcxObservationsTest {
  /** Which handler makes the timers. */
  enum Timing {
    MICROMETERS_HANDLER {
      @Override
      ObservationHandler<?> handler(MeterRegistry meters) {
        return new DefaultMeterObservationHandler(meters);
      }
    },
    RPCX_HANDLER_FIRST {
      @Override
      ObservationHandler<?> handler(MeterRegistry meters) {
        return new ObservationHandler.FirstMatchingCompositeObservationHandler(
            new RpcxMeterObservationHandler(meters), new DefaultMeterObservationHandler(meters));
      }
    };

    abstract ObservationHandler<?> handler(MeterRegistry meters);
  }

  @Parameter private Timing timing;
  /** How long a wait for a condition parks between looks. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private final TestObservationRegistry observations = TestObservationRegistry.create();
  private final MeterRegistry meters = new SimpleMeterRegistry();
  private RpcxServer server;
  private RpcxClient client;

  @BeforeEach
  void start() {
    observations
        .observationConfig()
        .observationHandler(timing.handler(meters))
        .observationHandler(new RpcxStreamMessagesHandler(meters));
    RpcxServer.Builder builder =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new Greeter.Impl());
    RpcxServerObservations.instrument(builder, observations);
    server = builder.build().start();
    client =
        RpcxClient.builder()
            .target("127.0.0.1", server.port())
            .maxStreamWindow(1) // credit one message ahead: a stream cancelled at 3 is sent 3
            .intercept(RpcxClientObservations.interceptor(observations))
            .build();
    new RpcxServerMetrics(server).bindTo(meters);
    new RpcxClientMetrics(client).bindTo(meters);
  }

  @AfterEach
  void stop() {
    client.close();
    server.stop();
  }

  private Timer timer(String name, String method, String status) {
    return meters.get(name).tag("rpc.method", method).tag("rpc.status_code", status).timer();
  }

  @Test
  void aCallIsTimedOnBothSidesWithTheRpcNamesAndTags() {
    assertEquals("hello ann", client.create(Greeter.class).hello("ann"));
    Timer clientTimer = timer("rpc.client.call.duration", "greeter/hello", "OK");
    assertEquals(1, clientTimer.count());
    assertEquals("rpcx", clientTimer.getId().getTag("rpc.system.name"));
    assertEquals("none", clientTimer.getId().getTag("error.type"));
    assertEquals("127.0.0.1", clientTimer.getId().getTag("server.address"));
    assertEquals(String.valueOf(server.port()), clientTimer.getId().getTag("server.port"));
    Timer serverTimer = timer("rpc.server.call.duration", "greeter/hello", "OK");
    assertEquals(1, serverTimer.count());
    assertTrue(
        clientTimer.totalTime(TimeUnit.NANOSECONDS) >= serverTimer.totalTime(TimeUnit.NANOSECONDS));
    TestObservationRegistryAssert.assertThat(observations)
        .hasNumberOfObservationsWithNameEqualTo("rpc.client.call.duration", 1)
        .hasNumberOfObservationsWithNameEqualTo("rpc.server.call.duration", 1)
        .forAllObservationsWithNameEqualTo(
            "rpc.server.call.duration",
            observation ->
                observation
                    .hasContextualNameEqualTo("greeter/hello")
                    .hasHighCardinalityKeyValueWithKey("network.peer.address"));
  }

  @Test
  void aFailureIsTaggedWithItsStatus() throws InterruptedException {
    Greeter greeter = client.create(Greeter.class);
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      assertThrows(RemoteFailureException.class, () -> greeter.fail("boom"));
      logs.assertMatching(
          Level.WARN,
          "WARN greeter/fail threw java\\.lang\\.IllegalStateException: boom"
              + " \\(for /127\\.0\\.0\\.1:\\d+\\) \\[java\\.lang\\.IllegalStateException: boom\\]");
    }
    Timer clientTimer = timer("rpc.client.call.duration", "greeter/fail", "REMOTE_FAILURE");
    assertEquals("REMOTE_FAILURE", clientTimer.getId().getTag("error.type"));
    Timer serverTimer = timer("rpc.server.call.duration", "greeter/fail", "REMOTE_FAILURE");
    assertEquals("REMOTE_FAILURE", serverTimer.getId().getTag("error.type"));
    assertEquals("IllegalStateException", serverTimer.getId().getTag("error"));
  }

  @Test
  void aCallToAMethodTheServerDoesNotPublishIsCountedAsOther() {
    assertThrows(
        NotFoundException.class, () -> client.create(Greeter.WithUnknownMethod.class).goodbye("x"));
    assertEquals(1, timer("rpc.server.call.duration", "_OTHER", "NOT_FOUND").count());
    assertEquals(1, timer("rpc.client.call.duration", "greeter/goodbye", "NOT_FOUND").count());
    assertEquals(1.0, meters.get("rpcx.server.calls.refused").functionCounter().count());
  }

  @Test
  void theGaugesAndCountersStillReadTheirStatsAfterAGarbageCollection() {
    // Micrometer holds a meter's state weakly: the binders must keep it reachable. Collect until
    // a weakly held object of our own is gone, so that the stats would have been too.
    java.lang.ref.WeakReference<Object> probe = new java.lang.ref.WeakReference<>(new Object());
    for (int i = 0; i < 50 && probe.get() != null; i++) {
      System.gc();
    }
    assertTrue(probe.get() == null, "a garbage collection ran");
    client.create(Greeter.class).hello("ann");
    assertThrows(
        NotFoundException.class, () -> client.create(Greeter.WithUnknownMethod.class).goodbye("x"));
    assertEquals(1.0, meters.get("rpcx.server.calls.refused").functionCounter().count());
    assertEquals(1.0, meters.get("rpcx.client.connections.open").gauge().value());
    assertEquals(0.0, meters.get("rpcx.client.retries").functionCounter().count());
  }

  @Test
  void theGaugesShowConnectionsAndNoCallLeftInFlight() {
    client.create(Greeter.class).hello("ann");
    assertEquals(1.0, meters.get("rpcx.client.connections.open").gauge().value());
    assertEquals(0.0, meters.get("rpcx.client.calls.active").gauge().value());
    assertEquals(0.0, meters.get("rpcx.client.retries").functionCounter().count());
    assertEquals(0.0, meters.get("rpcx.client.ejections").functionCounter().count());
    // The server counts a call finished just after it wrote the reply, which the client may have
    // read by then: wait for its gauges rather than read them once.
    awaitGauge("rpcx.server.calls.active", 0.0);
    awaitGauge("rpcx.server.calls.queued", 0.0);
    awaitGauge("rpcx.server.connections.open", 1.0);
  }

  @Test
  void keyValuesAnObservationFilterAddsAreTagsOfTheTimers() {
    observations.observationConfig().observationFilter(c -> c.addLowCardinalityKeyValue(
        io.micrometer.common.KeyValue.of("region", "eu")));
    client.create(Greeter.class).hello("ann");
    client.create(Greeter.class).hello("bob");
    assertEquals(
        2, meters.get("rpc.client.call.duration").tag("region", "eu").timer().count());
    awaitTimerCount("rpc.server.call.duration", "region", "eu", 2);
  }

  @Test
  void observationsOtherThanRpcxsAreTimedByTheHandlersAfterIt() {
    Observation.createNotStarted("inventory.check", observations).observe(() -> {});
    assertEquals(1, meters.get("inventory.check").tag("error", "none").timer().count());
    assertEquals(
        0, meters.get("inventory.check.active").longTaskTimer().activeTasks(), "none left open");
  }

  @Test
  void aCustomConventionRenamesAndRetags() {
    client.close();
    client =
        RpcxClient.builder()
            .target("127.0.0.1", server.port())
            .intercept(
                RpcxClientObservations.interceptor(
                    observations,
                    new DefaultRpcxClientObservationConvention() {
                      @Override
                      public String getName() {
                        return "greeter.calls";
                      }

                      @Override
                      public io.micrometer.common.KeyValues getLowCardinalityKeyValues(
                          RpcxClientContext context) {
                        return super.getLowCardinalityKeyValues(context).and("tenant", "a");
                      }
                    }))
            .build();
    client.create(Greeter.class).hello("ann");
    assertEquals("a", meters.get("greeter.calls").timer().getId().getTag("tenant"));
  }

  @Test
  void aStreamCallsMessagesAreSpanTagsAndCountersWithTheObservationsTags() throws Exception {
    Recorder<String> recorder = new Recorder<>(Long.MAX_VALUE);
    client.create(Greeter.class).words(5).subscribe(recorder);
    assertNull(recorder.awaitEnd());
    Counter received = counter("rpcx.client.stream.messages.received", "greeter/words", "OK");
    assertEquals(5.0, received.count());
    assertEquals("127.0.0.1", received.getId().getTag("server.address"));
    assertEquals("none", received.getId().getTag("error.type"));
    awaitCounter("rpcx.server.stream.messages.sent", "greeter/words", "OK", 5.0);
    assertNull(meters.find("rpcx.client.stream.messages.sent").meter());
    assertNull(meters.find("rpcx.server.stream.messages.received").meter());
    TestObservationRegistryAssert.assertThat(observations)
        .hasObservationWithNameEqualTo("rpc.client.call.duration")
        .that()
        .hasHighCardinalityKeyValue("rpcx.stream.messages.received", "5")
        .doesNotHaveHighCardinalityKeyValueWithKey("rpcx.stream.messages.sent");
    TestObservationRegistryAssert.assertThat(observations)
        .hasObservationWithNameEqualTo("rpc.server.call.duration")
        .that()
        .hasHighCardinalityKeyValue("rpcx.stream.messages.sent", "5")
        .doesNotHaveHighCardinalityKeyValueWithKey("rpcx.stream.messages.received");
  }

  @Test
  void aUnaryCallHasNoStreamTagsOrCounters() {
    client.create(Greeter.class).hello("ann");
    assertEquals(1, timer("rpc.server.call.duration", "greeter/hello", "OK").count());
    assertTrue(meters.find("rpcx.client.stream.messages.received").meters().isEmpty());
    assertTrue(meters.find("rpcx.server.stream.messages.sent").meters().isEmpty());
    TestObservationRegistryAssert.assertThat(observations)
        .hasObservationWithNameEqualTo("rpc.client.call.duration")
        .that()
        .doesNotHaveHighCardinalityKeyValueWithKey("rpcx.stream.messages.received");
  }

  @Test
  void cancelledAndFailedStreamsCountTheMessagesBeforeTheirEnd() throws Exception {
    Greeter greeter = client.create(Greeter.class);
    Recorder<String> cancelled = Recorder.cancellingAfter(3); // the server's credit: exactly 3
    greeter.endless().subscribe(cancelled);
    cancelled.awaitItems(3);
    awaitCounter("rpcx.client.stream.messages.received", "greeter/endless", "CANCELLED", 3.0);
    awaitCounter("rpcx.server.stream.messages.sent", "greeter/endless", "CANCELLED", 3.0);

    Recorder<String> failed = new Recorder<>(Long.MAX_VALUE);
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      greeter.wordsThenFail(4).subscribe(failed);
      assertInstanceOf(RemoteFailureException.class, failed.awaitEnd());
      logs.assertMatching(
          Level.WARN,
          "WARN greeter/wordsThenFail threw java\\.lang\\.IllegalStateException: no more words"
              + " \\(for /127\\.0\\.0\\.1:\\d+\\) \\[java\\.lang\\.IllegalStateException: no more words\\]");
    }
    assertEquals(
        4.0,
        counter("rpcx.client.stream.messages.received", "greeter/wordsThenFail", "REMOTE_FAILURE")
            .count());
    awaitCounter(
        "rpcx.server.stream.messages.sent", "greeter/wordsThenFail", "REMOTE_FAILURE", 4.0);
  }

  private Counter counter(String name, String method, String status) {
    return meters.get(name).tag("rpc.method", method).tag("rpc.status_code", status).counter();
  }

  /** The server times a call when it ends, which the client may see first: wait for it. */
  private void awaitTimerCount(String name, String tag, String value, long expected) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Timer timer = meters.find(name).tag(tag, value).timer();
      if (timer != null && timer.count() == expected) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + " " + tag + "=" + value + ": " + meters.getMeters());
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }

  /** The server counts a stream when it ends, which the client may see first: wait for it. */
  private void awaitCounter(String name, String method, String status, double expected) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Counter counter =
          meters.find(name).tag("rpc.method", method).tag("rpc.status_code", status).counter();
      if (counter != null && counter.count() == expected) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + " is " + (counter == null ? "absent" : counter.count()));
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }

  private void awaitGauge(String name, double expected) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (meters.get(name).gauge().value() != expected) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + " is " + meters.get(name).gauge().value());
      }
      Thread.onSpinWait();
    }
  }
}
