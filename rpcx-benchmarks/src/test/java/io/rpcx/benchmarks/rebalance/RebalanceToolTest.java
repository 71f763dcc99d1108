package io.rpcx.benchmarks.rebalance;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rebalancing measurement on a short horizon: behind a TCP balancer, servers added after the
 * clients connected get their share once connections age out, and none while they live for ever.
 */
@Timeout(60)
class RebalanceToolTest {

  @Test
  void aMaximumConnectionAgeMovesCallsOntoNewServers() throws Exception {
    RebalanceTool.Result aged =
        RebalanceTool.run(Duration.ofSeconds(1), Duration.ofSeconds(1), 8, 1, Duration.ofSeconds(1),
            Duration.ofSeconds(10));
    assertTrue(aged.reached(), () -> String.join("\n", aged.seconds()));
    assertTrue(aged.seconds().get(aged.seconds().size() - 1).equals("failed calls: 0"),
        () -> String.join("\n", aged.seconds()));
  }

  @Test
  void withoutItNewServersGetNoCall() throws Exception {
    RebalanceTool.Result forever =
        RebalanceTool.run(null, Duration.ZERO, 8, 1, Duration.ofSeconds(1), Duration.ofSeconds(3));
    assertFalse(forever.reached());
    assertTrue(forever.lastShare() == 0, () -> String.join("\n", forever.seconds()));
  }
}
