package io.rpcx.testsuite.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import io.rpcx.testsuite.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The default balancer sees a server that stopped answering while its connection stays open (a
 * frozen proxy in front of it, as a paused process): once nothing came back from it for a
 * fraction of the call timeout, calls go to the server that answers, even while fewer calls are
 * stuck on the silent one than are in flight on the other. A server that is merely slow keeps
 * taking calls.
 */
@Timeout(60)
class SilentServerTest {
  /**
   * What this class's tests may log: the silent server ejected once its calls timed out, and its
   * connection closed when a keepalive ping went unanswered.
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
          "WARN Closing connection to 127\\.0\\.0\\.1:\\d+: no answer to a keepalive ping within"
              + " \\d+ ms");
    } finally {
      logs.close();
    }
  }

  private final List<RpcxServer> servers = new ArrayList<>();
  private final List<ClusterServiceImpl> implementations = new ArrayList<>();
  /** Each attempt's server and start time, as a client interceptor saw them. */
  private final ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();

  private record Attempt(String server, long startNanos) {}

  private final ClientInterceptor recorder =
      new ClientInterceptor() {
        @Override
        public void onStart(ClientCall call) {
          attempts.add(new Attempt(call.server(), System.nanoTime()));
        }
      };

  private int start(String name) {
    ClusterServiceImpl implementation = new ClusterServiceImpl(name);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(implementation).build().start();
    servers.add(server);
    implementations.add(implementation);
    return server.port();
  }

  @AfterEach
  void stopServers() {
    servers.forEach(server -> server.stop(Duration.ZERO));
  }

  /** Calls {@code whoAmI(millis)} from {@code count} threads until {@code stop}; failures kept. */
  private static List<Thread> callers(
      ClusterService service, int count, int millis, AtomicBoolean stop, List<RpcxException> failures) {
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < count; t++) {
      Thread thread =
          new Thread(
              () -> {
                while (!stop.get()) {
                  try {
                    service.whoAmI(millis);
                  } catch (RpcxException e) {
                    failures.add(e);
                  }
                }
              },
              "caller-" + t);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    return threads;
  }

  private long attemptsTo(String server, long fromNanos, long toNanos) {
    return attempts.stream()
        .filter(a -> server.equals(a.server()))
        .filter(a -> a.startNanos() - fromNanos >= 0 && a.startNanos() - toNanos < 0)
        .count();
  }

  private static long millisFrom(long startNanos, long millis) {
    return startNanos + TimeUnit.MILLISECONDS.toNanos(millis);
  }

  @Test
  void callsGoAroundAServerThatStoppedAnsweringWithinAFractionOfTheCallTimeout() throws Exception {
    int a = start("a");
    int b = start("b");
    AtomicBoolean stop = new AtomicBoolean();
    List<RpcxException> failures = new CopyOnWriteArrayList<>();
    try (FaultProxy proxy = new FaultProxy(a)) {
      String silent = "127.0.0.1:" + proxy.port();
      String live = "127.0.0.1:" + b;
      try (RpcxClient client =
          RpcxClient.builder()
              .targets(ClusterService.class, silent, live)
              .targets(ClusterServiceAsync.class, silent, live)
              .defaultTimeout(Duration.ofSeconds(2))
              .intercept(recorder)
              .build()) {
        List<Thread> threads = callers(client.create(ClusterService.class), 32, 2, stop, failures);
        long warm = System.nanoTime();
        while (attemptsTo(silent, warm, System.nanoTime()) < 200
            || attemptsTo(live, warm, System.nanoTime()) < 200) {
          Thread.sleep(5);
        }

        proxy.freeze(true); // the server behind it stops answering; its connection stays open
        long frozen = System.nanoTime();
        Thread.sleep(300);
        // A burst: more calls in flight on the live server than are stuck on the silent one.
        ClusterServiceAsync async = client.create(ClusterServiceAsync.class);
        List<CompletableFuture<String>> burst = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
          burst.add(async.whoAmIAsync(2));
        }
        for (CompletableFuture<String> call : burst) {
          assertEquals("b", call.get(10, TimeUnit.SECONDS));
        }
        while (System.nanoTime() - millisFrom(frozen, 1_500) < 0) {
          Thread.sleep(5);
        }
        long after = attemptsTo(silent, millisFrom(frozen, 250), millisFrom(frozen, 1_500));
        stop.set(true);
        for (Thread thread : threads) {
          thread.join(10_000);
        }
        assertEquals(
            0,
            after,
            "attempts sent to the silent server between 250 ms and 1.5 s after it fell silent");
        assertTrue(
            failures.stream().allMatch(e -> e.getMessage().contains(silent)),
            () -> "only calls sent to the silent server failed: " + failures);
      }
    } finally {
      stop.set(true);
    }
  }

  @Test
  void aServerThatTurnsSlowButAnswersKeepsTakingCalls() throws Exception {
    int a = start("a");
    int b = start("b");
    String slow = "127.0.0.1:" + a;
    AtomicBoolean stop = new AtomicBoolean();
    List<RpcxException> failures = new CopyOnWriteArrayList<>();
    try (RpcxClient client =
        RpcxClient.builder()
            .targets(ClusterService.class, slow, "127.0.0.1:" + b)
            .defaultTimeout(Duration.ofSeconds(2))
            .intercept(recorder)
            .build()) {
      List<Thread> threads = callers(client.create(ClusterService.class), 16, 2, stop, failures);
      Thread.sleep(500);
      implementations.get(0).slowDown(300); // from 2 ms a call to 302 ms, at once
      long slowed = System.nanoTime();
      Thread.sleep(3_000);
      long lastSecond = attemptsTo(slow, millisFrom(slowed, 2_000), millisFrom(slowed, 3_000));
      stop.set(true);
      for (Thread thread : threads) {
        thread.join(10_000);
      }
      assertEquals(List.of(), failures);
      assertTrue(lastSecond > 0, "the slow server took no call in the last second");
      assertEquals(
          EndpointStatus.State.AVAILABLE, client.endpoints(ClusterService.class).get(0).state());
    } finally {
      stop.set(true);
    }
  }
}
