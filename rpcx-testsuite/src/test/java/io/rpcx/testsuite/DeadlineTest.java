package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.testing.RpcxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of asynchronous calls whose deadlines pass together all end as timeouts, none before
 * its deadline, and replies that come after their deadline never complete a call. How late callers
 * are released is measured by {@code io.rpcx.benchmarks.faults.DeadlineStorm}
 * (docs/RELIABILITY.md); this test checks what must hold on any machine.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeadlineTest {
  /** What this class's tests may log: the ejection of servers that time out. */
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
              + " row; probing it in the background");
    } finally {
      logs.close();
    }
  }

  private static final int CALLS = 5_000;

  @RPCXClient(name = "stalled")
  public interface Stalled {
    /** Answered only when the test releases it. */
    @Method(timeoutMillis = 100)
    CompletableFuture<String> stall(String text);
  }

  @RPCXServer(name = "stalled")
  public static final class StalledImpl implements Stalled {
    final ConcurrentLinkedQueue<CompletableFuture<String>> held = new ConcurrentLinkedQueue<>();

    @Override
    public CompletableFuture<String> stall(String text) {
      CompletableFuture<String> future = new CompletableFuture<>();
      held.add(future);
      return future;
    }

    /** Answers every call held so far. */
    void release() {
      CompletableFuture<String> future;
      while ((future = held.poll()) != null) {
        future.complete("late");
      }
    }
  }

  private static final StalledImpl service = new StalledImpl();

  @RegisterExtension
  static final RpcxExtension rpcx = RpcxExtension.withServices(service);

  @Test
  void fiveThousandDeadlinesPassingTogetherEndEveryCallAsATimeoutAndNoneEarly() throws Exception {
    Stalled stalled = rpcx.create(Stalled.class);
    for (int round = 0; round < 2; round++) {
      List<CompletableFuture<Long>> ended = new ArrayList<>(CALLS);
      AtomicInteger notTimeouts = new AtomicInteger();
      for (int i = 0; i < CALLS; i++) {
        long sent = System.nanoTime();
        ended.add(
            stalled.stall("x").handle(
                (value, failure) -> {
                  if (!(failure instanceof CallTimeoutException)) {
                    notTimeouts.incrementAndGet();
                  }
                  return System.nanoTime() - sent;
                }));
      }
      long earliest = Long.MAX_VALUE;
      for (CompletableFuture<Long> call : ended) {
        earliest = Math.min(earliest, call.get(30, TimeUnit.SECONDS));
      }
      assertEquals(0, notTimeouts.get(), "calls that did not end as timeouts");
      assertTrue(
          earliest >= TimeUnit.MILLISECONDS.toNanos(100),
          "a call was released " + earliest + " ns after it was made, before its deadline");
      service.release(); // the replies come after the deadlines: they must be discarded
    }
    assertEquals(0, rpcx.client().callsInFlight());
  }

  @RPCXClient(name = "controlled")
  interface Hurried {
    @Method(value = "sleep", timeoutMillis = 20)
    CompletableFuture<String> sleepAsync(String text, long millis);
  }

  @Test
  void repliesThatComeAfterTheirDeadlineNeverCompleteACall() throws Exception {
    ControlledService.Impl slow = new ControlledService.Impl();
    io.rpcx.server.RpcxServer server =
        io.rpcx.server.RpcxServer.builder().bindAddress("127.0.0.1").service(slow).build().start();
    try (io.rpcx.client.RpcxClient client =
        io.rpcx.client.RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      Hurried hurried = client.create(Hurried.class);
      List<CompletableFuture<String>> calls = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        calls.add(hurried.sleepAsync("late", 60));
      }
      for (CompletableFuture<String> call : calls) {
        CompletableFuture<Object> outcome = call.handle((value, failure) -> failure != null ? failure : value);
        Object result = outcome.get(30, TimeUnit.SECONDS);
        assertTrue(result instanceof CallTimeoutException, "a late reply completed a call: " + result);
      }
    } finally {
      server.stop();
    }
  }
}
