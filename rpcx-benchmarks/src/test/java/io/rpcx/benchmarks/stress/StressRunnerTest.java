package io.rpcx.benchmarks.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The runner against in-memory clients: a fast one, one that fails, one too slow for its deadline.
 */
class StressRunnerTest {
  private final List<String> progress = new ArrayList<>();
  private final StressRunner runner = new StressRunner(progress::add);

  @Test
  void aCleanRunMakesEveryCallAndTimesIt() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    RunResult r =
        runner.run(
            new EchoClient(
                s -> {
                  calls.incrementAndGet();
                  return s;
                }),
            "fake",
            4,
            25,
            1,
            false,
            far());
    assertEquals(100, calls.get());
    assertEquals(RunResult.Status.OK, r.status);
    assertEquals(100, r.latencies.length);
    assertTrue(r.millis > 0);
    assertFalse(runner.lastRunAbandoned());
  }

  @Test
  void theFirstRunOfACellIsMarkedDropped() throws Exception {
    RunResult r = runner.run(new EchoClient(s -> s), "fake", 2, 5, 0, true, far());
    assertEquals(RunResult.Status.DROPPED, r.status);
  }

  @Test
  void errorsFailTheRunAndAreCounted() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    RunResult r =
        runner.run(
            new EchoClient(
                s -> {
                  if (calls.incrementAndGet() % 10 == 0) {
                    throw new IllegalStateException("boom");
                  }
                  return s;
                }),
            "fake",
            2,
            50,
            1,
            false,
            far());
    assertEquals(RunResult.Status.FAILED, r.status);
    assertEquals(10, r.errors);
    assertEquals("10 of 100 calls failed, first: java.lang.IllegalStateException: boom", r.reason);
  }

  @Test
  void aRunPastTheDeadlineIsAbandonedAndFailed() throws Exception {
    RunResult r =
        runner.run(
            new EchoClient(
                s -> {
                  sleep(50);
                  return s;
                }),
            "fake",
            2,
            1000,
            1,
            false,
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300));
    assertEquals(RunResult.Status.FAILED, r.status);
    assertTrue(runner.lastRunAbandoned());
    assertTrue(r.reason.startsWith("exceeded the cell's time limit ("), r.reason);
    assertTrue(Double.isNaN(r.tps()));
  }

  private static long far() {
    return System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Answers echo calls with a function; nothing else is called by the stress tool. */
  private static final class EchoClient implements BenchmarkClient {
    private final UnaryOperator<String> echo;

    EchoClient(UnaryOperator<String> echo) {
      this.echo = echo;
    }

    @Override
    public String echo(String text) {
      return echo.apply(text);
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      throw new UnsupportedOperationException();
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Message create(Message message) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean update(long id, Message message) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Message findById(long id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean remove(long id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
  }
}
