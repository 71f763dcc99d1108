package io.rpcx.client.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.TestCalls;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.internal.testing.LogCapture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server's health: ejected after failures in a row; probed in the background (never with a
 * caller's call) about every initial ejection time; back at the first probe answered once its
 * ejection time is over, which grows when it is ejected again soon after coming back.
 */
@Timeout(10)
class MemberTest {
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final TestChannel channel = new TestChannel("10.0.0.1:9000");
  private final Member member = member(new Ejection(3, 40, 1_000));
  /** An ejection's log line: the server, for how long, after how many failures. */
  private static final String EJECTED =
      "WARN Ejecting 10\\.0\\.0\\.1:9000 for at least \\d+ ms after 3 failed calls in a row;"
          + " probing it in the background";

  private final LogCapture logs = LogCapture.of(Member.class);

  @AfterEach
  void stopScheduler() {
    scheduler.shutdownNow();
    try {
      logs.assertOnly(Level.WARN, EJECTED);
    } finally {
      logs.close();
    }
  }

  private Member member(Ejection ejection) {
    return new Member(channel.address, channel, ejection, scheduler, new LongAdder());
  }

  private PendingCall started(Member target) {
    PendingCall call = TestCalls.call("peek", "x");
    target.start(call);
    return call;
  }

  private void fail(Member target, int times, CallOutcome outcome) {
    for (int i = 0; i < times; i++) {
      target.ended(started(target), outcome);
    }
  }

  private static void await(BooleanSupplier condition) {
    while (!condition.getAsBoolean()) {
      Thread.onSpinWait();
    }
  }

  @Test
  void isEjectedAfterFailuresInARowAndTakesNoCallerCallWhileProbedInTheBackground() {
    fail(member, 2, CallOutcome.UNAVAILABLE);
    assertEquals(EndpointStatus.State.AVAILABLE, member.state(System.nanoTime()));
    fail(member, 1, CallOutcome.TIMED_OUT);
    long now = System.nanoTime();
    assertTrue(member.state(now) != EndpointStatus.State.AVAILABLE);
    assertFalse(member.isEligible(now));
    assertFalse(member.tryStart(TestCalls.call("peek", "x"), now), "no caller's call as a probe");

    await(() -> channel.probes.get() >= 3);
    assertTrue(member.state(System.nanoTime()) != EndpointStatus.State.AVAILABLE, "probes fail: still out");
    assertEquals(0, member.inFlight(), "probes are not calls");
    assertEquals(1, logs.lines(Level.WARN).size(), logs::all);
    assertTrue(logs.lines(Level.WARN).get(0).matches(EJECTED), logs::all);
  }

  @Test
  void theFirstProbeAnsweredAfterTheEjectionTimeBringsItBack() {
    long ejectedAt = System.nanoTime();
    fail(member, 3, CallOutcome.UNAVAILABLE);
    channel.answersProbes = true;
    await(() -> member.state(System.nanoTime()) == EndpointStatus.State.AVAILABLE);
    long out = System.nanoTime() - ejectedAt;
    assertTrue(out >= TimeUnit.MILLISECONDS.toNanos(32), "at least 40 ms -20%: " + out);
    assertEquals(0, member.consecutiveFailures());
    assertTrue(member.isEligible(System.nanoTime()));
  }

  @Test
  void aServerThatStaysDownIsProbedAtAnEvenPaceNotAGrowingOne() {
    fail(member, 3, CallOutcome.UNAVAILABLE);
    long start = System.nanoTime();
    await(() -> channel.probes.get() >= 10);
    long elapsed = System.nanoTime() - start;
    // Ten probes at 40 ms ±20% take 320-480 ms plus scheduling; a backoff growing 1.6 times per
    // failed probe would take over 40 seconds.
    assertTrue(elapsed < TimeUnit.SECONDS.toNanos(5), "10 probes took " + elapsed + " ns");
  }

  @Test
  void aLateReplyToACallSentBeforeTheEjectionDoesNotBringItBack() {
    // An ejection far longer than the test, so a slow machine cannot end it before the check.
    Member slow = member(new Ejection(3, 60_000, 60_000));
    PendingCall old = started(slow);
    fail(slow, 3, CallOutcome.UNAVAILABLE);
    slow.ended(old, CallOutcome.REPLIED);
    assertEquals(EndpointStatus.State.EJECTED, slow.state(System.nanoTime()));
  }

  @Test
  void aServerEjectedAgainSoonAfterComingBackStaysOutLonger() {
    channel.answersProbes = true;
    fail(member, 3, CallOutcome.UNAVAILABLE);
    await(() -> member.state(System.nanoTime()) == EndpointStatus.State.AVAILABLE);
    long again = System.nanoTime();
    fail(member, 3, CallOutcome.UNAVAILABLE);
    await(() -> member.state(System.nanoTime()) == EndpointStatus.State.AVAILABLE);
    long second = System.nanoTime() - again;
    assertTrue(second >= TimeUnit.MILLISECONDS.toNanos(51), "64 ms -20%: " + second);
  }

  @Test
  void aRetiredMemberIsNoLongerProbed() throws Exception {
    fail(member, 3, CallOutcome.UNAVAILABLE);
    await(() -> channel.probes.get() >= 1);
    member.retire();
    Thread.sleep(150); // more than three probe intervals
    int probes = channel.probes.get();
    Thread.sleep(150);
    assertEquals(probes, channel.probes.get());
  }

  @Test
  void failuresOnTheClientSayNothingAboutTheServer() {
    fail(member, 10, CallOutcome.OTHER);
    assertEquals(EndpointStatus.State.AVAILABLE, member.state(System.nanoTime()));
    assertEquals(0, member.inFlight());
  }

  @Test
  void aServerAnnouncedAgainIsForgivenAndReconnectedAtOnce() {
    fail(member, 3, CallOutcome.UNAVAILABLE);
    member.announcedAgain();
    assertEquals(EndpointStatus.State.AVAILABLE, member.state(System.nanoTime()));
    assertEquals(1, channel.reconnects);
  }

  @Test
  void aServerWaitingToReconnectIsUnreachable() {
    channel.accepting = false;
    assertEquals(EndpointStatus.State.UNREACHABLE, member.state(System.nanoTime()));
    assertFalse(member.isEligible(System.nanoTime()));
  }
}
