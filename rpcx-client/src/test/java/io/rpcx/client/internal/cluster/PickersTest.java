package io.rpcx.client.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.TestCalls;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.internal.testing.LogCapture;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The balancing strategies: round robin gives equal shares, least in-flight avoids busy servers,
 * consistent hashing keeps keys on their server and moves few of them when servers change; all
 * skip servers that cannot take calls and send retries elsewhere.
 */
class PickersTest {
  private static final Ejection EJECTION = new Ejection(5, 1_000, 30_000);
  private static final ScheduledExecutorService PROBES =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "probes");
            thread.setDaemon(true);
            return thread;
          });

  private static Member[] members(int count) {
    Member[] members = new Member[count];
    for (int i = 0; i < count; i++) {
      String address = "10.0.0." + (i + 1) + ":9000";
      members[i] = new Member(address, new TestChannel(address), EJECTION, PROBES, new LongAdder());
    }
    return members;
  }

  private static Map<Member, Integer> spread(Picker picker, int calls, String method) {
    Map<Member, Integer> counts = new HashMap<>();
    for (int i = 0; i < calls; i++) {
      counts.merge(picker.pick(TestCalls.call(method, "c" + i), System.nanoTime()), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void roundRobinGivesEachServerAnEqualShareAndSkipsOnesThatCannotTakeCalls() {
    Member[] members = members(3);
    RoundRobinPicker picker = new RoundRobinPicker(members, new AtomicInteger());
    assertEquals(Map.of(members[0], 100, members[1], 100, members[2], 100), spread(picker, 300, "peek"));

    ((TestChannel) members[1].channel()).accepting = false;
    assertEquals(Map.of(members[0], 150, members[2], 150), spread(picker, 300, "peek"));
  }

  @Test
  void leastInFlightPrefersTheServerWithFewerCallsInFlight() {
    Member[] members = members(2);
    for (int i = 0; i < 10; i++) {
      members[0].start(TestCalls.call("peek", "busy"));
    }
    LeastInFlightPicker picker = new LeastInFlightPicker(members);
    assertEquals(Map.of(members[1], 100), spread(picker, 100, "peek"));
  }

  @Test
  void leastInFlightSpreadsEvenlyOverIdleServers() {
    Member[] members = members(4);
    Map<Member, Integer> counts = spread(new LeastInFlightPicker(members), 4_000, "peek");
    for (Member member : members) {
      int count = counts.getOrDefault(member, 0);
      assertTrue(count > 800 && count < 1200, member + " got " + count);
    }
  }

  @Test
  void aRetryGoesToAnotherServerWhenThereIsOne() {
    Member[] members = members(3);
    for (Picker picker :
        new Picker[] {
          new RoundRobinPicker(members, new AtomicInteger()),
          new LeastInFlightPicker(members),
          new RingHashPicker(members)
        }) {
      for (int i = 0; i < 50; i++) {
        Member first = picker.pick(TestCalls.call("load", "k" + i), System.nanoTime());
        PendingCall retry = TestCalls.attempt("load", 2, first, "k" + i);
        assertNotSame(first, picker.pick(retry, System.nanoTime()), picker.getClass().getSimpleName());
      }
    }
    Member[] one = members(1);
    PendingCall retry = TestCalls.attempt("peek", 2, one[0], "x");
    assertSame(one[0], new LeastInFlightPicker(one).pick(retry, System.nanoTime()));
  }

  @Test
  void withNoServerAbleToTakeCallsThePickersStillPickOne() {
    Member[] members = members(3);
    for (Member member : members) {
      ((TestChannel) member.channel()).accepting = false;
    }
    assertTrue(
        java.util.List.of(members)
            .contains(new LeastInFlightPicker(members).pick(TestCalls.call("peek", "x"), 0)));
    assertTrue(
        java.util.List.of(members)
            .contains(
                new RoundRobinPicker(members, new AtomicInteger())
                    .pick(TestCalls.call("peek", "x"), 0)));
  }

  @Test
  void consistentHashingKeepsAKeyOnItsServerAndMovesOnlyTheKeysOfAServerThatLeaves() {
    Member[] four = members(4);
    RingHashPicker ring = new RingHashPicker(four);
    Map<String, Member> owner = new HashMap<>();
    Map<Member, Integer> counts = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      String key = "customer-" + i;
      Member member = ring.pick(TestCalls.call("load", key), 0);
      assertSame(member, ring.pick(TestCalls.call("load", key), 0), "the same key, the same server");
      owner.put(key, member);
      counts.merge(member, 1, Integer::sum);
    }
    for (Member member : four) {
      int count = counts.get(member);
      assertTrue(count > 1_700 && count < 3_300, member + " owns " + count + " of 10000 keys");
    }

    Member[] three = {four[0], four[1], four[3]}; // four[2] leaves
    RingHashPicker smaller = new RingHashPicker(three);
    for (Map.Entry<String, Member> entry : owner.entrySet()) {
      Member now = smaller.pick(TestCalls.call("load", entry.getKey()), 0);
      if (entry.getValue() != four[2]) {
        assertSame(entry.getValue(), now, "a key of a server that stayed moved: " + entry.getKey());
      }
    }
  }

  @Test
  void consistentHashingSendsAKeyOnWhileItsServerIsEjectedAndBackAfterwards() {
    Member[] members = members(3);
    RingHashPicker ring = new RingHashPicker(members);
    Member home = ring.pick(TestCalls.call("load", "alice"), 0);
    try (LogCapture logs = LogCapture.of(Member.class)) {
      for (int i = 0; i < EJECTION.consecutiveFailures(); i++) {
        PendingCall call = TestCalls.call("load", "alice");
        home.start(call);
        home.ended(call, CallOutcome.UNAVAILABLE);
      }
      assertEquals(1, logs.lines(Level.WARN).size(), logs::all);
      assertTrue(
          logs.lines(Level.WARN).get(0).matches(
              "WARN Ejecting " + home.address() + " for at least \\d+ ms after "
                  + EJECTION.consecutiveFailures() + " failed calls in a row; probing it in the"
                  + " background"),
          logs::all);
    }
    Member elsewhere = ring.pick(TestCalls.call("load", "alice"), System.nanoTime());
    assertNotSame(home, elsewhere);
    assertSame(elsewhere, ring.pick(TestCalls.call("load", "alice"), System.nanoTime()));
    home.announcedAgain();
    assertSame(home, ring.pick(TestCalls.call("load", "alice"), System.nanoTime()));
  }

  @Test
  void methodsWithoutARoutingKeyAreSpreadByLeastInFlight() {
    Member[] members = members(3);
    Map<Member, Integer> counts = spread(new RingHashPicker(members), 3_000, "peek");
    assertEquals(3, counts.size(), "spread over every server: " + counts);
  }
}
