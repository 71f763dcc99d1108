package io.rpcx.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The meters without Observation record the same timers, under the same names and tags, as the
 * observations do; each method, server and status keeps its one timer. A stream call adds its
 * messages to counters with the timer's tags when it ends, however it ends; a unary call has none.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RpcxMetersTest {
  /** How long a wait for a condition parks between looks. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private final MeterRegistry meters = new SimpleMeterRegistry();
  private RpcxServer server;
  private RpcxClient client;

  @BeforeEach
  void start() {
    RpcxServer.Builder builder =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new Greeter.Impl());
    server = RpcxServerMeters.instrument(builder, meters).build().start();
    client =
        RpcxClient.builder()
            .target("127.0.0.1", server.port())
            .maxStreamWindow(1) // credit one message ahead: a stream cancelled at 3 is sent 3
            .intercept(RpcxClientMeters.interceptor(meters))
            .build();
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
  void everyCallIsTimedOnBothSidesUnderTheRpcNamesAndTags() {
    Greeter greeter = client.create(Greeter.class);
    for (int i = 0; i < 3; i++) {
      assertEquals("hello ann", greeter.hello("ann"));
    }
    Timer clientTimer = timer("rpc.client.call.duration", "greeter/hello", "OK");
    assertEquals(3, clientTimer.count(), "one timer for the method, server and status");
    assertEquals(
        Set.of(
            "rpc.system.name=rpcx",
            "rpc.method=greeter/hello",
            "rpc.status_code=OK",
            "error.type=none",
            "server.address=127.0.0.1",
            "server.port=" + server.port()),
        tags(clientTimer));
    Timer serverTimer = timer("rpc.server.call.duration", "greeter/hello", "OK");
    assertEquals(3, serverTimer.count());
    assertEquals(
        Set.of(
            "rpc.system.name=rpcx",
            "rpc.method=greeter/hello",
            "rpc.status_code=OK",
            "error.type=none"),
        tags(serverTimer));
    assertTrue(
        clientTimer.totalTime(TimeUnit.NANOSECONDS) >= serverTimer.totalTime(TimeUnit.NANOSECONDS));
  }

  @Test
  void aFailureIsTimedWithItsStatus() throws InterruptedException {
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      assertThrows(RemoteFailureException.class, () -> client.create(Greeter.class).fail("boom"));
      logs.assertMatching(
          Level.WARN,
          "WARN greeter/fail threw java\\.lang\\.IllegalStateException: boom"
              + " \\(for /127\\.0\\.0\\.1:\\d+\\) \\[java\\.lang\\.IllegalStateException: boom\\]");
    }
    Timer clientTimer = timer("rpc.client.call.duration", "greeter/fail", "REMOTE_FAILURE");
    assertEquals("REMOTE_FAILURE", clientTimer.getId().getTag("error.type"));
    assertEquals(1, clientTimer.count());
    Timer serverTimer = timer("rpc.server.call.duration", "greeter/fail", "REMOTE_FAILURE");
    assertEquals("REMOTE_FAILURE", serverTimer.getId().getTag("error.type"));
    assertEquals(1, serverTimer.count());
  }

  @Test
  void aCallToAMethodTheServerDoesNotPublishIsTimedAsOther() {
    Greeter.WithUnknownMethod unknown = client.create(Greeter.WithUnknownMethod.class);
    assertThrows(NotFoundException.class, () -> unknown.goodbye("x"));
    assertEquals(1, timer("rpc.server.call.duration", "_OTHER", "NOT_FOUND").count());
    assertEquals(1, timer("rpc.client.call.duration", "greeter/goodbye", "NOT_FOUND").count());
  }

  /** A method two client interfaces of different services inherit: one Java method, two names. */
  public interface Hello {
    String hello(String name);
  }

  @RPCXClient(name = "greeter")
  public interface GreeterHello extends Hello {}

  @RPCXClient(name = "elsewhere")
  public interface ElsewhereHello extends Hello {}

  @Test
  void anInheritedMethodIsNamedByTheServiceOfEachInterface() {
    assertEquals("hello ann", client.create(GreeterHello.class).hello("ann"));
    assertThrows(NotFoundException.class, () -> client.create(ElsewhereHello.class).hello("ann"));
    assertEquals(1, timer("rpc.client.call.duration", "greeter/hello", "OK").count());
    assertEquals(1, timer("rpc.client.call.duration", "elsewhere/hello", "NOT_FOUND").count());
  }

  @Test
  void aStreamCallCountsTheMessagesEachSideSentAndReceivedWithTheTimersTags() throws Exception {
    Greeter greeter = client.create(Greeter.class);
    Recorder<String> recorder = new Recorder<>(Long.MAX_VALUE);
    greeter.words(5).subscribe(recorder);
    assertNull(recorder.awaitEnd());
    assertEquals(5, recorder.items.size());

    Counter received = counter("rpcx.client.stream.messages.received", "greeter/words", "OK");
    assertEquals(5.0, received.count());
    assertEquals(tags(timer("rpc.client.call.duration", "greeter/words", "OK")), tags(received));
    Counter sent = awaitCounter("rpcx.server.stream.messages.sent", "greeter/words", "OK", 5.0);
    assertEquals(tags(timer("rpc.server.call.duration", "greeter/words", "OK")), tags(sent));
    // A server stream sends nothing from the client: no counters for the directions it lacks.
    assertNull(meters.find("rpcx.client.stream.messages.sent").meter());
    assertNull(meters.find("rpcx.server.stream.messages.received").meter());

    // A blocking Stream is the same call; the counters add up per method and status.
    try (Stream<String> lines = greeter.lines(3)) {
      assertEquals(3, lines.count());
    }
    assertEquals(
        3.0, counter("rpcx.client.stream.messages.received", "greeter/lines", "OK").count());
    greeter.words(2).subscribe(recorder = new Recorder<>(Long.MAX_VALUE));
    assertNull(recorder.awaitEnd());
    assertEquals(7.0, received.count());
    awaitCounter("rpcx.server.stream.messages.sent", "greeter/words", "OK", 7.0);
  }

  @Test
  void aUnaryCallHasNoStreamCounters() {
    assertEquals("hello ann", client.create(Greeter.class).hello("ann"));
    assertEquals(1, timer("rpc.server.call.duration", "greeter/hello", "OK").count());
    List<Meter> all = meters.getMeters();
    assertTrue(
        all.stream().noneMatch(meter -> meter.getId().getName().contains("stream")),
        all.stream().map(meter -> meter.getId().getName()).toList().toString());
  }

  @Test
  void aCancelledStreamCountsTheMessagesBeforeTheCancelOnBothSides() throws Exception {
    Recorder<String> recorder = Recorder.cancellingAfter(3); // the server's credit: exactly 3
    client.create(Greeter.class).endless().subscribe(recorder);
    recorder.awaitItems(3);
    awaitCounter("rpcx.client.stream.messages.received", "greeter/endless", "CANCELLED", 3.0);
    assertEquals(1, timer("rpc.client.call.duration", "greeter/endless", "CANCELLED").count());
    awaitCounter("rpcx.server.stream.messages.sent", "greeter/endless", "CANCELLED", 3.0);
  }

  @Test
  void aFailedStreamCountsTheMessagesBeforeTheFailureOnBothSides() throws Exception {
    Recorder<String> recorder = new Recorder<>(Long.MAX_VALUE);
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      client.create(Greeter.class).wordsThenFail(4).subscribe(recorder);
      assertInstanceOf(RemoteFailureException.class, recorder.awaitEnd());
      logs.assertMatching(
          Level.WARN,
          "WARN greeter/wordsThenFail threw java\\.lang\\.IllegalStateException: no more words"
              + " \\(for /127\\.0\\.0\\.1:\\d+\\) \\[java\\.lang\\.IllegalStateException: no more words\\]");
    }
    assertEquals(4, recorder.items.size());
    Counter received =
        counter("rpcx.client.stream.messages.received", "greeter/wordsThenFail", "REMOTE_FAILURE");
    assertEquals(4.0, received.count());
    assertEquals("REMOTE_FAILURE", received.getId().getTag("error.type"));
    awaitCounter(
        "rpcx.server.stream.messages.sent", "greeter/wordsThenFail", "REMOTE_FAILURE", 4.0);
  }

  private Counter counter(String name, String method, String status) {
    return meters.get(name).tag("rpc.method", method).tag("rpc.status_code", status).counter();
  }

  /** The server counts a stream when it ends, which the client may see first: wait for it. */
  private Counter awaitCounter(String name, String method, String status, double expected) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Counter counter =
          meters.find(name).tag("rpc.method", method).tag("rpc.status_code", status).counter();
      if (counter != null && counter.count() == expected) {
        return counter;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + " is " + (counter == null ? "absent" : counter.count()));
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }

  private static Set<String> tags(Meter meter) {
    Set<String> tags = new TreeSet<>();
    meter.getId().getTags().forEach(tag -> tags.add(tag.getKey() + "=" + tag.getValue()));
    return tags;
  }
}
