package io.rpcx.client.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.TestCalls;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server's health: ejected after failures in a row, for a jittered backoff that grows while it
 * keeps failing; then probed with one call at a time; back after an answer.
 */
class MemberTest {
  private final TestChannel channel = new TestChannel("10.0.0.1:9000");
  private final Member member = new Member(channel.address, channel, new Ejection(3, 1_000, 8_000));

  private void fail(int times, CallOutcome outcome) {
    for (int i = 0; i < times; i++) {
      member.start(TestCalls.call("peek", "x"));
      member.ended(outcome);
    }
  }

  private static long seconds(double value) {
    return (long) (value * TimeUnit.SECONDS.toNanos(1));
  }

  @Test
  void isEjectedAfterFailuresInARowAndProbedWithOneCallWhenTheBackoffIsOver() {
    long start = System.nanoTime();
    fail(2, CallOutcome.UNAVAILABLE);
    assertEquals(Member.State.AVAILABLE, member.state(start));
    fail(1, CallOutcome.TIMED_OUT);
    assertEquals(Member.State.EJECTED, member.state(System.nanoTime()));
    assertFalse(member.isEligible(System.nanoTime()));

    long afterBackoff = System.nanoTime() + seconds(1.21); // 1 s ±20%
    assertEquals(Member.State.PROBING, member.state(afterBackoff));
    assertTrue(member.isEligible(afterBackoff));
    member.start(TestCalls.call("peek", "probe"));
    assertFalse(member.isEligible(afterBackoff), "one probe at a time");

    member.ended(CallOutcome.REPLIED);
    assertEquals(Member.State.AVAILABLE, member.state(System.nanoTime()));
    assertEquals(0, member.consecutiveFailures());
  }

  @Test
  void aFailedProbeEjectsItAgainForLonger() {
    TestChannel quick = new TestChannel("10.0.0.2:9000");
    Member flaky = new Member(quick.address, quick, new Ejection(1, 40, 1_000));
    flaky.start(TestCalls.call("peek", "x"));
    flaky.ended(CallOutcome.UNAVAILABLE);
    long firstEjection = System.nanoTime();
    while (flaky.state(System.nanoTime()) == Member.State.EJECTED) {
      Thread.onSpinWait();
    }
    long firstBackoff = System.nanoTime() - firstEjection;
    assertTrue(firstBackoff >= TimeUnit.MILLISECONDS.toNanos(32), "40 ms -20%: " + firstBackoff);

    flaky.start(TestCalls.call("peek", "probe"));
    flaky.ended(CallOutcome.UNAVAILABLE);
    long secondEjection = System.nanoTime();
    while (flaky.state(System.nanoTime()) == Member.State.EJECTED) {
      Thread.onSpinWait();
    }
    long secondBackoff = System.nanoTime() - secondEjection;
    assertTrue(secondBackoff >= TimeUnit.MILLISECONDS.toNanos(51), "64 ms -20%: " + secondBackoff);
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
