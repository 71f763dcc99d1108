package io.rpcx.testsuite.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import io.rpcx.testsuite.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three servers, each behind a proxy that can make it vanish like a crashed machine (connections
 * reset, port closed): idempotent calls fail over without an error, a call that may have run is
 * never sent twice unless its method is idempotent, and a call that never reached a server is
 * retried elsewhere whatever its method.
 */
@Timeout(60)
class FailoverTest {
  /**
   * What this class's tests may log: the ejection of the servers it kills, stopped with calls in
   * flight, and their reports as unreachable.
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
              + " answers again \\(reconnecting in the background, next attempt in \\d+ ms\\)",
          "WARN Grace period of \\d+ ms ended with \\d+ calls still running; closing connections");
    } finally {
      logs.close();
    }
  }

  private final Map<String, Integer> executions = new ConcurrentHashMap<>();
  private final List<RpcxServer> servers = new ArrayList<>();
  private final List<FaultProxy> proxies = new ArrayList<>();
  private RpcxClient client;
  private ClusterService service;

  @BeforeEach
  void start() throws Exception {
    List<String> targets = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      RpcxServer server =
          RpcxServer.builder()
              .bindAddress("127.0.0.1")
              .service(new ClusterServiceImpl(name, executions))
              .build()
              .start();
      FaultProxy proxy = new FaultProxy(server.port());
      servers.add(server);
      proxies.add(proxy);
      targets.add("127.0.0.1:" + proxy.port());
    }
    client =
        RpcxClient.builder()
            .targets(ClusterService.class, targets.toArray(new String[0]))
            .targets(ClusterServiceAsync.class, targets.toArray(new String[0]))
            .defaultTimeout(Duration.ofSeconds(10))
            .build();
    service = client.create(ClusterService.class);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    for (FaultProxy proxy : proxies) {
      proxy.close();
    }
    servers.forEach(server -> server.stop(Duration.ZERO));
  }

  /** Server b's machine dies: its connections are reset and its port refuses. */
  private void crashServerB() throws Exception {
    proxies.get(1).resetAll();
    proxies.get(1).close();
  }

  /** Runs {@code call} from {@code threads} threads until {@code stop} is set; collects failures. */
  private List<RpcxException> load(
      int threads, AtomicBoolean stop, CountDownLatch warmedUp, Consumer<Integer> call)
      throws InterruptedException {
    List<RpcxException> failures = new CopyOnWriteArrayList<>();
    List<Thread> workers = new ArrayList<>();
    AtomicInteger done = new AtomicInteger();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread worker =
          new Thread(
              () -> {
                int i = 0;
                while (!stop.get()) {
                  try {
                    call.accept(thread * 1_000_000 + i++);
                  } catch (RpcxException e) {
                    failures.add(e);
                  }
                  if (done.incrementAndGet() == threads * 5) {
                    warmedUp.countDown();
                  }
                }
              });
      workers.add(worker);
      worker.start();
    }
    this.workers = workers;
    return failures;
  }

  private List<Thread> workers;

  private void join() throws InterruptedException {
    for (Thread worker : workers) {
      worker.join(20_000);
      assertFalse(worker.isAlive(), "a caller is stuck");
    }
  }

  @Test
  void idempotentCallsFailOverWithoutAnyErrorWhenAServerCrashes() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch warmedUp = new CountDownLatch(1);
    ConcurrentHashMap<String, AtomicInteger> answers = new ConcurrentHashMap<>();
    AtomicBoolean crashed = new AtomicBoolean();
    AtomicInteger startedAfterCrashAnsweredByB = new AtomicInteger();
    List<RpcxException> failures =
        load(
            60,
            stop,
            warmedUp,
            i -> {
              boolean afterCrash = crashed.get();
              String server = service.whoAmI(20);
              answers.computeIfAbsent(server, k -> new AtomicInteger()).incrementAndGet();
              if (afterCrash && server.equals("b")) {
                startedAfterCrashAnsweredByB.incrementAndGet();
              }
            });
    assertTrue(warmedUp.await(20, TimeUnit.SECONDS));
    crashServerB();
    crashed.set(true);
    int callsBefore = answers.values().stream().mapToInt(AtomicInteger::get).sum();
    Thread.sleep(1500); // the callers go on meanwhile
    int callsAfter = answers.values().stream().mapToInt(AtomicInteger::get).sum();
    stop.set(true);
    join();
    assertEquals(List.of(), failures);
    assertTrue(answers.get("b").get() > 0, "b answered before it crashed");
    assertTrue(callsAfter > callsBefore, "calls went on after the crash");
    // Only calls already sent when it crashed can have come back from b.
    assertEquals(0, startedAfterCrashAnsweredByB.get(), "calls made after the crash answered by b");
    EndpointStatus b = client.endpoints(ClusterService.class).get(1);
    assertTrue(b.state() != EndpointStatus.State.AVAILABLE, "b is out of rotation: " + b);
  }

  @Test
  void asynchronousIdempotentCallsFailOverToo() throws Exception {
    ClusterServiceAsync async = client.create(ClusterServiceAsync.class);
    Semaphore window = new Semaphore(100);
    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      window.acquire();
      CompletableFuture<String> call = async.whoAmIAsync(10);
      call.whenComplete((value, failure) -> window.release());
      calls.add(call);
      if (i == 1_000) {
        crashServerB();
      }
    }
    Map<String, Integer> answers = new java.util.HashMap<>();
    for (CompletableFuture<String> call : calls) {
      answers.merge(call.get(20, TimeUnit.SECONDS), 1, Integer::sum);
    }
    assertEquals(3_000, answers.values().stream().mapToInt(Integer::intValue).sum());
    assertTrue(answers.get("b") < 1_200, "b stopped answering after the crash: " + answers);
  }

  @Test
  void aCallThatMayHaveRunIsNeverSentTwiceUnlessItsMethodIsIdempotent() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch warmedUp = new CountDownLatch(1);
    List<RpcxException> failures =
        load(60, stop, warmedUp, i -> service.record("call-" + i, 30));
    assertTrue(warmedUp.await(20, TimeUnit.SECONDS));
    crashServerB();
    long crashedAt = System.nanoTime();
    while (System.nanoTime() - crashedAt < TimeUnit.MILLISECONDS.toNanos(1000)) {
      Thread.onSpinWait();
    }
    stop.set(true);
    join();
    assertFalse(failures.isEmpty(), "calls in flight on b when it crashed failed");
    for (RpcxException failure : failures) {
      assertTrue(failure instanceof UnavailableException, failure.toString());
      assertFalse(((UnavailableException) failure).isSafeToRetry(), failure.getMessage());
    }
    executions.forEach(
        (call, count) -> assertEquals(1, count, call + " ran " + count + " times"));
  }

  @Test
  void callsRefusedByAStoppingServerAreRetriedElsewhereEvenIfNotIdempotent() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch warmedUp = new CountDownLatch(1);
    List<RpcxException> failures =
        load(60, stop, warmedUp, i -> service.record("call-" + i, 10));
    assertTrue(warmedUp.await(20, TimeUnit.SECONDS));
    servers.get(1).stop(Duration.ofSeconds(5)); // GOAWAY: calls in flight finish, new ones refused
    stop.set(true);
    join();
    assertEquals(List.of(), failures);
    executions.forEach(
        (call, count) -> assertEquals(1, count, call + " ran " + count + " times"));
  }
}
