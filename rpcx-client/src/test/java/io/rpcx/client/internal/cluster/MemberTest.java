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

  @Test
  void isEjectedAfterFailuresInARowAndProbedWithOneCallWhenTheBackoffIsOver() {
    fail(2, CallOutcome.UNAVAILABLE);
    assertEquals(Member.State.AVAILABLE, member.state(System.nanoTime()));
    fail(1, CallOutcome.TIMED_OUT);
    long ejectedAt = System.nanoTime();
    assertEquals(Member.State.EJECTED, member.state(System.nanoTime()));
    assertFalse(member.isEligible(System.nanoTime()));

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

    member.ended(first, CallOutcome.UNAVAILABLE);
    assertFalse(member.tryStart(second, System.nanoTime()), "a failed probe ejects it again");
    assertEquals(Member.State.EJECTED, member.state(System.nanoTime()));
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
    member.ended(started(member), CallOutcome.UNAVAILABLE);
    long second = awaitProbing(member, System.nanoTime());
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
