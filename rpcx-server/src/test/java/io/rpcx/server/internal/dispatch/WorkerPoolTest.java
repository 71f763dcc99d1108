package io.rpcx.server.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.internal.testing.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server's worker pool: threads started on demand up to the limit, then a bounded queue, then a
 * rejection that names both limits; idle threads are reused; nothing is lost or run twice.
 */
@Timeout(30)
class WorkerPoolTest {
  private WorkerPool pool;

  @AfterEach
  void stop() throws InterruptedException {
    if (pool != null) {
      pool.shutdownNow();
      assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }
  }

  private static void runAndWait(WorkerPool pool, Runnable work) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    pool.execute(
        () -> {
          work.run();
          done.countDown();
        });
    assertTrue(done.await(10, TimeUnit.SECONDS));
  }

  private static void awaitQuiescent(WorkerPool pool) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!pool.isQuiescent()) {
      assertTrue(System.nanoTime() < deadline, "the pool did not go idle within 10 s");
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  @Test
  void reusesIdleThreadsInsteadOfStartingNewOnes() throws InterruptedException {
    pool = WorkerPool.create(200, 10, "test-worker-");
    Set<String> threads = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < 200; i++) {
      runAndWait(pool, () -> threads.add(Thread.currentThread().getName()));
      // The thread that ran the call goes back to idle after the call has signalled: only then
      // is it sure to be reused (on a loaded machine it may be descheduled in between).
      awaitQuiescent(pool);
    }
    // One thread, give or take one the pool started while the first was still being registered.
    assertTrue(threads.size() <= 2, "one caller at a time, after the pool was idle, used " + threads);
    assertTrue(threads.iterator().next().startsWith("test-worker-"));
  }

  @Test
  void runsAtMostMaxThreadsAtOnceThenQueuesThenRejectsNamingTheLimits() throws Exception {
    pool = WorkerPool.create(2, 3, "test-worker-");
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch running = new CountDownLatch(2);
    AtomicInteger concurrent = new AtomicInteger();
    AtomicInteger mostConcurrent = new AtomicInteger();
    AtomicInteger ran = new AtomicInteger();
    Runnable call =
        () -> {
          mostConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
          running.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          concurrent.decrementAndGet();
          ran.incrementAndGet();
        };
    for (int i = 0; i < 5; i++) {
      pool.execute(call);
    }
    assertTrue(running.await(10, TimeUnit.SECONDS));
    assertEquals(5, pool.acceptedCalls());

    RejectedExecutionException rejected =
        assertThrows(RejectedExecutionException.class, () -> pool.execute(call));
    assertEquals("all 2 worker threads are busy and 3 calls are queued", rejected.getMessage());

    release.countDown();
    pool.shutdown();
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    assertEquals(5, ran.get(), "queued calls run before the pool terminates");
    assertEquals(2, mostConcurrent.get());
    assertEquals(0, pool.acceptedCalls());
  }

  @Test
  void rejectsCallsOnceShutDown() {
    pool = WorkerPool.create(1, 5, "test-worker-");
    pool.shutdown();
    RejectedExecutionException rejected =
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
    assertEquals("the server is stopping", rejected.getMessage());
    assertEquals(0, pool.acceptedCalls());
  }

  @Test
  void aCallThatThrowsIsCountedAsFinishedAndTheThreadServesOn() throws InterruptedException {
    pool = WorkerPool.create(1, 5, "test-worker-");
    try (LogCapture logs = LogCapture.of(WorkerPool.class)) {
      pool.execute(
          () -> {
            throw new IllegalStateException("a bug in a call");
          });
      AtomicInteger ran = new AtomicInteger();
      runAndWait(pool, ran::incrementAndGet);
      assertEquals(1, ran.get());
      assertEquals(1, pool.threads());
      logs.assertLines(
          Level.TRACE,
          "ERROR A call failed outside its own error handling [java.lang.IllegalStateException: a"
              + " bug in a call]");
    }
  }

  @Test
  void idleThreadsEndAfterTheKeepAlive() throws Exception {
    pool = WorkerPool.create(3, 10, Duration.ofMillis(50), "test-worker-");
    runAndWait(pool, () -> {});
    while (pool.threads() > 0) {
      LockSupport.parkNanos(1_000_000);
    }
    AtomicInteger ran = new AtomicInteger();
    runAndWait(pool, ran::incrementAndGet);
    assertEquals(1, ran.get(), "a new thread starts on demand");
  }

  @Test
  void runsEveryCallExactlyOnceUnderContentionAndThreadTimeouts() throws Exception {
    pool = WorkerPool.create(4, 200_000, Duration.ofMillis(1), "test-worker-");
    int producers = 8;
    int perProducer = 20_000;
    ConcurrentHashMap<Integer, Integer> runs = new ConcurrentHashMap<>();
    CountDownLatch done = new CountDownLatch(producers * perProducer);
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      int base = p * perProducer;
      Thread producer =
          new Thread(
              () -> {
                for (int i = 0; i < perProducer; i++) {
                  int id = base + i;
                  pool.execute(
                      () -> {
                        runs.merge(id, 1, Integer::sum);
                        done.countDown();
                      });
                  if (i % 1000 == 0) {
                    LockSupport.parkNanos(3_000_000); // let idle threads reach their keep-alive
                  }
                }
              });
      threads.add(producer);
      producer.start();
    }
    for (Thread producer : threads) {
      producer.join();
    }
    assertTrue(done.await(20, TimeUnit.SECONDS), "calls lost: " + done.getCount());
    assertEquals(producers * perProducer, runs.size());
    assertTrue(runs.values().stream().allMatch(count -> count == 1), "a call ran twice");
  }
}
