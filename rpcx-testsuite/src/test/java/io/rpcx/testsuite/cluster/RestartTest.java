package io.rpcx.testsuite.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import io.rpcx.internal.testing.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three servers, each a JVM of its own, listed statically; one is killed with SIGKILL and started
 * again on its port while 64 callers call an idempotent method. No caller sees an error, no
 * caller's call is used to find out whether the server is back (a background probe is), and the
 * restarted server takes calls again within 2 seconds of being ready.
 */
@Timeout(120)
class RestartTest {
  /**
   * What this class's tests may log: the ejection of the server it restarts, and that server
   * reported unreachable while it is down.
   */
  private static LogCapture logs;

  @BeforeAll
  static void captureLogs() {
    logs = LogCapture.warnings("io.rpcx");
  }

  @AfterAll
  static void onlyWhatTheTestsProvoked() {
    try {
      logs.assertOnly(
          Level.WARN,
          "WARN Ejecting 127\\.0\\.0\\.1:\\d+ for at least \\d+ ms after \\d+ failed calls in a"
              + " row; probing it in the background",
          "WARN RPCX server 127\\.0\\.0\\.1:\\d+ is unreachable: .*; no calls go to it until it"
              + " answers again \\(reconnecting in the background, next attempt in \\d+ ms\\)");
    } finally {
      logs.close();
    }
  }

  private static final int CALLERS = 64;

  @Test
  void aServerKilledAndRestartedTakesCallsWithinTwoSecondsAndNoCallerSeesAnError()
      throws Exception {
    List<ClusterNode.Handle> nodes = new ArrayList<>();
    List<Thread> callers = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    try {
      for (String name : List.of("a", "b", "c")) {
        nodes.add(ClusterNode.Handle.start("-", name, 0));
      }
      String[] targets = nodes.stream().map(node -> "127.0.0.1:" + node.port).toArray(String[]::new);
      try (RpcxClient client = RpcxClient.builder().targets(ClusterService.class, targets).build()) {
        ClusterService service = client.create(ClusterService.class);
        List<RpcxException> failures = new CopyOnWriteArrayList<>();
        Map<String, AtomicLong> firstAnswer = new ConcurrentHashMap<>();
        for (int t = 0; t < CALLERS; t++) {
          Thread caller =
              new Thread(
                  () -> {
                    while (!stop.get()) {
                      try {
                        String server = service.whoAmI(1);
                        firstAnswer.computeIfAbsent(server, k -> new AtomicLong(System.nanoTime()));
                      } catch (RpcxException e) {
                        failures.add(e);
                      }
                    }
                  },
                  "caller-" + t);
          callers.add(caller);
          caller.start();
        }
        await(() -> firstAnswer.keySet().containsAll(List.of("a", "b", "c")), 30);

        ClusterNode.Handle b = nodes.get(1);
        b.kill();
        await(() -> state(client, 1) != EndpointStatus.State.AVAILABLE, 30);
        Thread.sleep(1_500); // an outage of a few probes, callers going on meanwhile

        ClusterNode.Handle restarted = ClusterNode.Handle.start("-", "b2", b.port);
        nodes.set(1, restarted);
        long ready = System.nanoTime();
        await(() -> firstAnswer.containsKey("b2"), 30);
        long back = firstAnswer.get("b2").get() - ready;
        System.out.println("RestartTest: the restarted server took its first call "
            + TimeUnit.NANOSECONDS.toMillis(back) + " ms after it was ready");
        Thread.sleep(500);
        stop.set(true);
        for (Thread caller : callers) {
          caller.join(20_000);
        }

        assertEquals(List.of(), failures, "errors seen by callers");
        assertTrue(
            back < TimeUnit.SECONDS.toNanos(2),
            "the restarted server took its first call " + TimeUnit.NANOSECONDS.toMillis(back)
                + " ms after it was ready");
      }
    } finally {
      stop.set(true);
      for (ClusterNode.Handle node : nodes) {
        node.close();
      }
    }
  }

  private static EndpointStatus.State state(RpcxClient client, int index) {
    return client.endpoints(ClusterService.class).get(index).state();
  }

  private static void await(BooleanSupplier condition, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not reached within " + seconds + " s");
      }
      Thread.sleep(5);
    }
  }
}
