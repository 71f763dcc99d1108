package io.rpcx.server.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The server's worker pool, of every design: threads started on demand up to the limit, then a
 * bounded queue, then a rejection that names both limits; idle threads are reused; nothing is lost
 * or run twice.
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

  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void reusesIdleThreadsInsteadOfStartingNewOnes(WorkerPool.Design design)
      throws InterruptedException {
    pool = WorkerPool.create(design, 200, 10, "test-worker-");
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

  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void runsAtMostMaxThreadsAtOnceThenQueuesThenRejectsNamingTheLimits(WorkerPool.Design design)
      throws Exception {
    pool = WorkerPool.create(design, 2, 3, "test-worker-");
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

  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void rejectsCallsOnceShutDown(WorkerPool.Design design) {
    pool = WorkerPool.create(design, 1, 5, "test-worker-");
    pool.shutdown();
    RejectedExecutionException rejected =
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
    assertEquals("the server is stopping", rejected.getMessage());
    assertEquals(0, pool.acceptedCalls());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void aCallThatThrowsIsCountedAsFinishedAndTheThreadServesOn(WorkerPool.Design design)
      throws InterruptedException {
    pool = WorkerPool.create(design, 1, 5, "test-worker-");
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

  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void idleThreadsEndAfterTheKeepAlive(WorkerPool.Design design) throws Exception {
    pool = WorkerPool.create(design, 3, 10, Duration.ofMillis(50), "test-worker-");
    runAndWait(pool, () -> {});
    while (pool.threads() > 0) {
      LockSupport.parkNanos(1_000_000);
    }
    AtomicInteger ran = new AtomicInteger();
    runAndWait(pool, ran::incrementAndGet);
    assertEquals(1, ran.get(), "a new thread starts on demand");
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void runsEveryCallExactlyOnceUnderContentionAndThreadTimeouts(WorkerPool.Design design)
      throws Exception {
    pool =
        WorkerPool.create(design, 4, 200_000, Duration.ofMillis(1), "test-worker-");
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

  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void threadsAreDaemonsNamedByThePrefixWithTheBuildersContextClassLoader(
      WorkerPool.Design design) throws Exception {
    ClassLoader builders = new ClassLoader(getClass().getClassLoader()) {};
    Thread builder =
        new Thread(() -> pool = WorkerPool.create(design, 2, 5, "named-worker-"));
    builder.setContextClassLoader(builders);
    builder.start();
    builder.join();
    List<Thread> seen = new ArrayList<>();
    runAndWait(pool, () -> seen.add(Thread.currentThread()));
    Thread worker = seen.get(0);
    assertTrue(worker.getName().matches("named-worker-\\d+"), worker.getName());
    assertTrue(worker.isDaemon());
    assertSame(builders, worker.getContextClassLoader());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void shutdownNowInterruptsRunningCallsAndTerminates(WorkerPool.Design design) throws Exception {
    pool = WorkerPool.create(design, 1, 5, "test-worker-");
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    pool.execute(
        () -> {
          running.countDown();
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException e) {
            interrupted.countDown();
          }
        });
    assertTrue(running.await(10, TimeUnit.SECONDS));
    pool.execute(() -> {});
    pool.shutdownNow();
    assertTrue(interrupted.await(10, TimeUnit.SECONDS));
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    assertTrue(pool.isTerminated());
    assertEquals(0, pool.threads());
  }

  /**
   * One producer, as the event loop is, submitting each call when the last has finished, after a
   * pause that varies from none to longer than a spin: the calls land while the only busy thread
   * spins, while it is parking and once it has parked. A call stranded by a submission racing a
   * thread going idle would never finish.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(WorkerPool.Design.class)
  void aCallSubmittedWhileItsThreadGoesIdleIsNeverStranded(WorkerPool.Design design)
      throws Exception {
    pool = WorkerPool.create(design, 4, 10, "test-worker-");
    AtomicInteger finished = new AtomicInteger();
    for (int i = 0; i < 20_000; i++) {
      pool.execute(finished::incrementAndGet);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (finished.get() <= i) {
        assertTrue(System.nanoTime() < deadline, "call " + i + " was not run within 10 s");
        Thread.onSpinWait();
      }
      long pause = System.nanoTime() + (i % 64) * 1_000L; // 0 to 63 µs
      while (System.nanoTime() < pause) {
        Thread.onSpinWait();
      }
    }
    assertEquals(0, pool.acceptedCalls());
  }

  @Test
  void theDesignIsNamedByTheSystemPropertyAndAWrongNameIsRefused() {
    assertEquals(WorkerPool.Design.DEFAULT, WorkerPool.Design.parse(null));
    assertEquals(WorkerPool.Design.DEFAULT, WorkerPool.Design.parse(" "));
    assertEquals(WorkerPool.Design.FORK_JOIN, WorkerPool.Design.parse("forkjoin"));
    assertEquals(WorkerPool.Design.SPINNING, WorkerPool.Design.parse("Spinning"));
    assertEquals(WorkerPool.Design.LIFO, WorkerPool.Design.parse("lifo"));
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> WorkerPool.Design.parse("fifo"));
    assertEquals(
        "rpcx.server.workerPool: fifo (expected: one of lifo, spinning, forkjoin)",
        refused.getMessage());
  }
}
