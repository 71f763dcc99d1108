package io.rpcx.client.internal.call;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Retries are capped at a share of the calls of the last ten seconds, plus a small reserve. */
class RetryBudgetTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private static int retriesAllowed(RetryBudget budget, long now, int tries) {
    int allowed = 0;
    for (int i = 0; i < tries; i++) {
      if (budget.tryRetry(now)) {
        allowed++;
      }
    }
    return allowed;
  }

  @Test
  void allowsTheReserveToAClientThatMadeFewCalls() {
    RetryBudget budget = new RetryBudget(0.2, 10);
    assertEquals(100, retriesAllowed(budget, 50 * SECOND, 1_000), "10 per second over 10 s");
  }

  @Test
  void allowsTwentyPercentOfRecentCallsOnTopOfTheReserve() {
    RetryBudget budget = new RetryBudget(0.2, 0);
    long now = 100 * SECOND;
    for (int i = 0; i < 1_000; i++) {
      budget.called(now);
    }
    assertEquals(200, retriesAllowed(budget, now, 1_000));
  }

  @Test
  void forgetsCallsAndRetriesOlderThanTenSeconds() {
    RetryBudget budget = new RetryBudget(0.2, 0);
    long start = 100 * SECOND;
    for (int i = 0; i < 1_000; i++) {
      budget.called(start);
    }
    assertEquals(200, retriesAllowed(budget, start, 1_000));
    assertEquals(0, retriesAllowed(budget, start + 9 * SECOND, 10), "still inside the window");
    assertEquals(0, retriesAllowed(budget, start + 11 * SECOND, 10), "the calls are forgotten too");
    for (int i = 0; i < 100; i++) {
      budget.called(start + 11 * SECOND);
    }
    assertEquals(20, retriesAllowed(budget, start + 11 * SECOND, 100));
  }
}
