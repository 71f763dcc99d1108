package io.rpcx.client.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.TestCalls;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server's health: ejected after failures in a row, for a jittered backoff that grows while it
 * keeps failing; then probed with one call at a time; back once a probe is answered.
 */
@Timeout(10)
class MemberTest {
  private final TestChannel channel = new TestChannel("10.0.0.1:9000");
  private final Member member = new Member(channel.address, channel, new Ejection(3, 40, 1_000));

  private PendingCall started(Member target) {
    PendingCall call = TestCalls.call("peek", "x");
    target.start(call);
    return call;
  }

  private void fail(int times, CallOutcome outcome) {
    for (int i = 0; i < times; i++) {
      member.ended(started(member), outcome);
    }
  }

  /** Waits out the ejection; returns how long it lasted from {@code since}. */
  private static long awaitProbing(Member target, long since) {
    while (target.state(System.nanoTime()) == Member.State.EJECTED) {
      Thread.onSpinWait();
    }
    return System.nanoTime() - since;
  }

  /**
   * Asserts {@code target} is ejected and takes no call, unless the shortest ejection ({@code
   * minMillis}: the backoff less its jitter) has passed since {@code since}, as it may on a machine
   * that paused this thread.
   */
  private static void assertEjectedUnlessTheMinimumPassed(Member target, long since, long minMillis) {
    long now = System.nanoTime();
    Member.State state = target.state(now);
    boolean eligible = target.isEligible(now);
    if (now - since < TimeUnit.MILLISECONDS.toNanos(minMillis)) {
      assertEquals(Member.State.EJECTED, state);
      assertFalse(eligible);
    }
  }

  @Test
  void isEjectedAfterFailuresInARowAndProbedWithOneCallWhenTheBackoffIsOver() {
    fail(2, CallOutcome.UNAVAILABLE);
    assertEquals(Member.State.AVAILABLE, member.state(System.nanoTime()));
    long ejectedAt = System.nanoTime(); // taken before, so the ejection measured is never shorter
    fail(1, CallOutcome.TIMED_OUT);
    assertEjectedUnlessTheMinimumPassed(member, ejectedAt, 32);

    long ejection = awaitProbing(member, ejectedAt);
    assertTrue(ejection >= TimeUnit.MILLISECONDS.toNanos(32), "40 ms -20%: " + ejection);
    assertTrue(member.isEligible(System.nanoTime()));
    PendingCall probe = started(member);
    assertFalse(member.isEligible(System.nanoTime()), "one probe at a time");

    member.ended(probe, CallOutcome.REPLIED);
    assertEquals(Member.State.AVAILABLE, member.state(System.nanoTime()));
    assertEquals(0, member.consecutiveFailures());
  }

  @Test
  void ofCallersThatAllSawTheProbeFreeOnlyTheFirstTakesIt() {
    fail(3, CallOutcome.UNAVAILABLE);
    awaitProbing(member, System.nanoTime());
    long now = System.nanoTime();
    assertTrue(member.isEligible(now), "both callers see the probe free");
    PendingCall first = TestCalls.call("peek", "x");
    PendingCall second = TestCalls.call("peek", "x");
    assertTrue(member.tryStart(first, now));
    assertFalse(member.tryStart(second, now), "the probe is taken: pick again");
    assertEquals(1, member.inFlight());

    long failedAt = System.nanoTime();
    member.ended(first, CallOutcome.UNAVAILABLE);
    assertEjectedUnlessTheMinimumPassed(member, failedAt, 51);
    long later = System.nanoTime();
    if (later - failedAt < TimeUnit.MILLISECONDS.toNanos(51)) {
      assertFalse(member.tryStart(second, later), "a failed probe ejects it again");
    }
  }

  @Test
  void aLateReplyToACallSentBeforeTheEjectionDoesNotBringItBack() {
    // A backoff far longer than the test, so a slow machine cannot end it before the check.
    Member slow = new Member(channel.address, channel, new Ejection(3, 60_000, 60_000));
    PendingCall old = started(slow);
    for (int i = 0; i < 3; i++) {
      slow.ended(started(slow), CallOutcome.UNAVAILABLE);
    }
    slow.ended(old, CallOutcome.REPLIED);
    assertEquals(Member.State.EJECTED, slow.state(System.nanoTime()));
  }

  @Test
  void aFailedProbeEjectsItAgainForLonger() {
    fail(3, CallOutcome.UNAVAILABLE);
    awaitProbing(member, System.nanoTime());
    PendingCall probe = started(member);
    long failedAt = System.nanoTime();
    member.ended(probe, CallOutcome.UNAVAILABLE);
    long second = awaitProbing(member, failedAt);
    assertTrue(second >= TimeUnit.MILLISECONDS.toNanos(51), "64 ms -20%: " + second);
  }

  @Test
  void failuresOnTheClientSayNothingAboutTheServer() {
    fail(10, CallOutcome.OTHER);
    assertEquals(Member.State.AVAILABLE, member.state(System.nanoTime()));
    assertEquals(0, member.inFlight());
  }

  @Test
  void aServerAnnouncedAgainIsForgivenAndReconnectedAtOnce() {
    fail(3, CallOutcome.UNAVAILABLE);
    member.announcedAgain();
    assertEquals(Member.State.AVAILABLE, member.state(System.nanoTime()));
    assertEquals(1, channel.reconnects);
  }

  @Test
  void aServerWaitingToReconnectIsUnreachable() {
    channel.accepting = false;
    assertEquals(Member.State.UNREACHABLE, member.state(System.nanoTime()));
    assertFalse(member.isEligible(System.nanoTime()));
  }
}
