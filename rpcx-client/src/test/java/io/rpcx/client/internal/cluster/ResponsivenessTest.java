package io.rpcx.client.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server is silent while calls wait for it and none has been answered for four times its usual
 * latency, at least 100 ms; answering one call, or having none waiting, ends it.
 */
class ResponsivenessTest {
  private static final long T0 = System.nanoTime();

  private static long at(long millis) {
    return T0 + TimeUnit.MILLISECONDS.toNanos(millis);
  }

  @Test
  void aFastServerIsSilentOnceCallsWaitedPastTheFloorUnanswered() {
    Responsiveness server = new Responsiveness();
    for (int i = 0; i < 50; i++) {
      server.sent(at(i));
      server.answered(at(i), at(i + 1)); // 1 ms each
    }
    assertEquals(TimeUnit.MILLISECONDS.toNanos(1), server.usualLatencyNanos());
    server.sent(at(1_000));
    server.sent(at(1_010));
    assertFalse(server.isSilent(at(1_099)), "4 x 1 ms is less than the floor: 100 ms");
    assertTrue(server.isSilent(at(1_101)));
  }

  @Test
  void silenceIsMeasuredFromTheLastAnswer() {
    Responsiveness server = new Responsiveness();
    server.sent(at(0));
    server.sent(at(0));
    server.answered(at(0), at(90));
    assertFalse(server.isSilent(at(150)), "answered 60 ms ago");
    assertTrue(server.isSilent(at(90 + 4 * 90 + 1)), "4 x its 90 ms");
  }

  @Test
  void aSlowServerIsSilentOnlyFarPastItsUsualLatency() {
    Responsiveness server = new Responsiveness();
    for (int i = 0; i < 20; i++) {
      server.sent(at(0));
      server.answered(at(0), at(400));
    }
    server.sent(at(1_000));
    assertFalse(server.isSilent(at(2_500)), "1.5 s: under 4 x 400 ms");
    assertTrue(server.isSilent(at(2_601)));
  }

  @Test
  void withNoCallWaitingAServerIsNeverSilent() {
    Responsiveness server = new Responsiveness();
    assertFalse(server.isSilent(at(60_000)));
    server.sent(at(0));
    assertTrue(server.isSilent(at(101)));
    server.unanswered(); // timed out: nothing waits for the server any more
    assertFalse(server.isSilent(at(5_000)));
    server.sent(at(5_000));
    assertFalse(server.isSilent(at(5_050)), "a call sent after a quiet spell starts the clock");
    assertTrue(server.isSilent(at(5_101)));
  }
}
