package io.rpcx.server.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A connection's calls in flight: a call holds a place under the limit until it is answered, and
 * counts as unfinished until its last frame is queued.
 */
class CallsInFlightTest {

  @Test
  void aCallPastTheLimitIsRefusedUntilACallIsAnswered() {
    CallsInFlight calls = new CallsInFlight(1);
    assertTrue(calls.tryStart());
    assertFalse(calls.tryStart(), "a second call while the first is unanswered");
    calls.answered();
    assertTrue(calls.tryStart(), "the first call's place is free once it is answered");
    assertEquals(2, calls.count(), "both still unfinished");
  }

  @Test
  void onlyTheLastUnfinishedCallReportsTheConnectionIdle() {
    CallsInFlight calls = new CallsInFlight(2);
    assertTrue(calls.tryStart());
    assertTrue(calls.tryStart());
    calls.answered();
    calls.answered();
    assertFalse(calls.finish(), "one call still unfinished");
    assertTrue(calls.finish(), "the last one");
    assertEquals(0, calls.count());
  }
}
