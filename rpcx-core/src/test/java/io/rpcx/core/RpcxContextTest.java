package io.rpcx.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.internal.testing.LogCapture;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The context of the call a thread serves: what it holds, and how it moves between threads. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
@SuppressWarnings({"try"}) // scopes held open for their bodies
class RpcxContextTest {
  private static final RpcxContext.Key<String> TRACE = RpcxContext.Key.of("trace", String.class);

  private static RpcxContext call(Duration timeout) {
    return RpcxContext.forCall(
        "orders", "place", null, timeout, Map.of("tenant", "a"), "10.0.0.9:4000");
  }

  @Test
  void outsideAnyCallTheContextIsRootWithNothingInIt() {
    RpcxContext root = RpcxContext.current();
    assertSame(RpcxContext.ROOT, root);
    assertFalse(root.isServingCall());
    assertFalse(root.hasDeadline());
    assertEquals(java.util.Optional.empty(), root.timeRemaining());
    assertEquals(Map.of(), root.metadata());
    assertNull(root.get(TRACE));
  }

  @Test
  void aCallsContextIsCurrentWhileAttachedAndTheOneBeforeComesBackAfter() {
    RpcxContext context = call(Duration.ofSeconds(5));
    try (RpcxContext.Scope ignored = context.attach()) {
      RpcxContext current = RpcxContext.current();
      assertSame(context, current);
      assertTrue(current.isServingCall());
      assertEquals("orders", current.service());
      assertEquals("place", current.method());
      assertEquals("a", current.metadata().get("tenant"));
      assertEquals("10.0.0.9:4000", current.remoteAddress());
      long left = current.timeRemaining().orElseThrow().toMillis();
      assertTrue(left > 4_000 && left <= 5_000, "time left " + left + " ms");
    }
    assertSame(RpcxContext.ROOT, RpcxContext.current());
  }

  @Test
  void valuesAreFoundOnlyByTheirOwnKeyAndAddingOneLeavesTheOriginalAsItWas() {
    RpcxContext context = call(null);
    RpcxContext traced = context.with(TRACE, "00-abc-01");
    RpcxContext.Key<String> sameName = RpcxContext.Key.of("trace", String.class);
    assertEquals("00-abc-01", traced.get(TRACE));
    assertNull(traced.get(sameName), "keys are compared by identity, not by name");
    assertNull(context.get(TRACE));
    assertEquals("00-def-01", traced.with(TRACE, "00-def-01").get(TRACE));
  }

  @Test
  void aTimeoutNarrowsTheDeadlineButNeverWidensIt() {
    RpcxContext context = call(Duration.ofSeconds(5));
    assertTrue(
        context.withTimeout(Duration.ofSeconds(1)).timeRemaining().orElseThrow().toMillis()
            <= 1_000);
    assertSame(context, context.withTimeout(Duration.ofSeconds(60)));
    assertFalse(context.withoutDeadline().hasDeadline());
    assertTrue(call(Duration.ofMillis(-1)).isExpired());
  }

  @Test
  void wrappedTasksAndPropagatingExecutorsCarryTheContextToOtherThreads() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      RpcxContext context = call(Duration.ofSeconds(5)).with(TRACE, "00-abc-01");
      AtomicReference<RpcxContext> plain = new AtomicReference<>();
      AtomicReference<RpcxContext> wrapped = new AtomicReference<>();
      AtomicReference<RpcxContext> propagated = new AtomicReference<>();
      AtomicReference<RpcxContext> afterwards = new AtomicReference<>();
      try (RpcxContext.Scope ignored = context.attach()) {
        pool.submit(() -> plain.set(RpcxContext.current())).get();
        pool.submit(context.wrap(() -> wrapped.set(RpcxContext.current()))).get();
        RpcxContext.propagating(pool).execute(() -> propagated.set(RpcxContext.current()));
      }
      pool.submit(() -> afterwards.set(RpcxContext.current())).get();
      assertSame(RpcxContext.ROOT, plain.get(), "a thread hop without a wrapper loses the context");
      assertSame(context, wrapped.get());
      assertSame(context, propagated.get());
      assertSame(RpcxContext.ROOT, afterwards.get(), "the pool thread is left as it was");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aScopeLeftOpenInsideAnotherDoesNotOutliveTheOuterOne() throws InterruptedException {
    try (LogCapture logs = LogCapture.of(RpcxContext.class)) {
      scopeLeftOpenInsideAnother();
      String leak =
          "ERROR The RpcxContext scope of RpcxContext[orders/place from 10.0.0.9:4000] was closed"
              + " while one opened inside it, of RpcxContext[orders/place from 10.0.0.9:4000], was"
              + " still open: closed both [java.lang.IllegalStateException: scope left open]";
      logs.assertLines(Level.TRACE, leak, leak);
    }
  }

  private void scopeLeftOpenInsideAnother() {
    RpcxContext outer = call(null);
    RpcxContext.Scope outerScope = outer.attach();
    RpcxContext.Scope leaked = outer.with(TRACE, "x").attach();
    outerScope.close(); // logs the leak, restores what was current before the outer scope
    assertSame(RpcxContext.ROOT, RpcxContext.current(), "the thread keeps no leaked context");
    leaked.close(); // closed with the outer one already: changes nothing
    assertSame(RpcxContext.ROOT, RpcxContext.current());
    try (RpcxContext.Scope next = outer.attach()) {
      RpcxContext.Scope closedLate = outer.with(TRACE, "late").attach();
      try (RpcxContext.Scope inner = outer.with(TRACE, "inner").attach()) {
        closedLate.close(); // closes "inner" too
        assertSame(outer, RpcxContext.current());
      }
      assertSame(outer, RpcxContext.current(), "closing inner again changed nothing");
    }
    assertSame(RpcxContext.ROOT, RpcxContext.current());
  }

  @Test
  void aScopeClosedOnAnotherThreadLeavesBothThreadsAsTheyWere() throws Exception {
    RpcxContext context = call(null);
    ExecutorService pool = Executors.newSingleThreadExecutor(task -> new Thread(task, "elsewhere"));
    try (LogCapture logs = LogCapture.of(RpcxContext.class);
        RpcxContext.Scope scope = context.attach()) {
      AtomicReference<RpcxContext> there = new AtomicReference<>();
      pool.submit(
              () -> {
                scope.close();
                there.set(RpcxContext.current());
              })
          .get(10, TimeUnit.SECONDS);
      assertSame(RpcxContext.ROOT, there.get());
      assertSame(context, RpcxContext.current(), "still attached here, until closed here");
      logs.assertLines(
          Level.TRACE,
          "ERROR An RpcxContext scope of RpcxContext[orders/place from 10.0.0.9:4000] was closed on"
              + " elsewhere, not on " + Thread.currentThread().getName() + " that attached it:"
              + " ignored [java.lang.IllegalStateException: scope closed on another thread]");
    } finally {
      pool.shutdownNow();
    }
    assertSame(RpcxContext.ROOT, RpcxContext.current());
  }

  @Test
  void aContextsExecutorRunsEveryTaskInItWhicheverThreadSubmitsIt() throws Exception {
    RpcxContext context = call(Duration.ofSeconds(5));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    ExecutorService submitter = Executors.newSingleThreadExecutor();
    try {
      Executor inContext = context.executor(pool);
      Executor propagating = RpcxContext.propagating(pool);
      AtomicReference<RpcxContext> fixed = new AtomicReference<>();
      AtomicReference<RpcxContext> fromSubmitter = new AtomicReference<>();
      CountDownLatch ran = new CountDownLatch(2);
      submitter
          .submit(
              () -> {
                inContext.execute(
                    () -> {
                      fixed.set(RpcxContext.current());
                      ran.countDown();
                    });
                propagating.execute(
                    () -> {
                      fromSubmitter.set(RpcxContext.current());
                      ran.countDown();
                    });
              })
          .get(10, TimeUnit.SECONDS);
      assertTrue(ran.await(10, TimeUnit.SECONDS));
      assertSame(context, fixed.get());
      assertSame(RpcxContext.ROOT, fromSubmitter.get(), "propagating takes the submitter's");
    } finally {
      pool.shutdownNow();
      submitter.shutdownNow();
    }
  }
}
