package io.rpcx.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.server.internal.config.ServerConfig;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * {@code virtualThreads()} needs Java 21 and says so on older ones; combined with another choice
 * of where calls run, or with the worker pool's sizes, it fails the build naming both. From Java
 * 24 a server not told where to run calls runs each on a virtual thread. The calls
 * themselves on virtual threads are specified end to end in rpcx-testsuite's {@code virtualthreads}
 * package, which CI runs on the newest JDK of the machine.
 */
class VirtualThreadsOptionTest {
  private static final Executor CALLER_RUNS = Runnable::run;

  @Test
  @EnabledForJreRange(max = JRE.JAVA_20)
  void beforeJava21VirtualThreadsFailNamingTheJavaFound() {
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> RpcxServer.builder().virtualThreads());
    assertEquals(
        "virtualThreads() needs Java 21 or later (virtual threads, JEP 444); this JVM is Java "
            + Runtime.version() + " (" + System.getProperty("java.home") + ")",
        e.getMessage());
    UnsupportedOperationException limited =
        assertThrows(
            UnsupportedOperationException.class, () -> RpcxServer.builder().virtualThreads(500));
    assertEquals(
        "virtualThreads(500) needs Java 21 or later (virtual threads, JEP 444); this JVM is Java "
            + Runtime.version() + " (" + System.getProperty("java.home") + ")",
        limited.getMessage());
  }

  @Test
  void virtualThreadsAndAnExecutorCannotBeCombined() {
    assertEquals(
        "virtualThreads() and executor(...) cannot be combined: each chooses where calls run;"
            + " keep one",
        buildFailure(virtualThreads().executor(CALLER_RUNS)));
    RpcxServer.Builder direct = RpcxServer.builder().directExecutor().runOnVirtualThreads(500);
    assertEquals(
        "virtualThreads(500) and directExecutor() cannot be combined: each chooses where calls"
            + " run; keep one",
        buildFailure(direct));
  }

  @Test
  void virtualThreadsAndTheWorkerPoolsSizesCannotBeCombined() {
    RpcxServer.Builder threads = virtualThreads().workerThreads(50);
    assertEquals(
        "virtualThreads() and workerThreads(50) cannot be combined: every call runs on a virtual"
            + " thread of its own, started at once, so there is no worker pool to size or queue;"
            + " limit the calls in flight with virtualThreads(maxCallsInFlight)",
        buildFailure(threads));
    RpcxServer.Builder queued = virtualThreads().maxQueuedCalls(100);
    assertEquals(
        "virtualThreads() and maxQueuedCalls(100) cannot be combined: every call runs on a"
            + " virtual thread of its own, started at once, so there is no worker pool to size or"
            + " queue; limit the calls in flight with virtualThreads(maxCallsInFlight)",
        buildFailure(queued));
  }

  @Test
  void theLimitOfCallsOnVirtualThreadsIsPositiveAndByDefaultWhatThePoolAccepts() {
    assertEquals(10_200, virtualThreads().config().virtualThreadCalls());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> RpcxServer.builder().runOnVirtualThreads(0));
    assertEquals("maxCallsInFlight: 0 (expected: >= 1)", e.getMessage());
  }

  @Test
  void virtualThreadsAndTheWorkerPoolByNameCannotBeCombined() {
    RpcxServer.Builder both = virtualThreads().workerPool();
    assertEquals(
        "virtualThreads() and workerPool() cannot be combined: each chooses where calls run; keep"
            + " one",
        buildFailure(both));
  }

  @Test
  void virtualThreadsAreTheDefaultFromJava24WhereSynchronizedNoLongerPins() {
    assertFalse(ServerConfig.virtualThreadsByDefault(17));
    assertFalse(ServerConfig.virtualThreadsByDefault(21));
    assertFalse(ServerConfig.virtualThreadsByDefault(23));
    assertTrue(ServerConfig.virtualThreadsByDefault(24));
    assertTrue(ServerConfig.virtualThreadsByDefault(25));
  }

  @Test
  @EnabledForJreRange(max = JRE.JAVA_23)
  void beforeJava24AServerNotToldWhereToRunCallsUsesTheWorkerPool() {
    assertFalse(RpcxServer.builder().config().virtualThreads());
  }

  @Test
  @EnabledForJreRange(min = JRE.JAVA_24)
  void fromJava24AServerNotToldWhereToRunCallsUsesAVirtualThreadPerCall() {
    ServerConfig unchosen = RpcxServer.builder().config();
    assertTrue(unchosen.virtualThreads());
    assertEquals(ServerConfig.DEFAULT_VIRTUAL_THREAD_CALLS, unchosen.virtualThreadCalls());
    assertFalse(RpcxServer.builder().workerPool().config().virtualThreads(), "workerPool()");
    assertFalse(
        RpcxServer.builder().workerThreads(50).config().virtualThreads(), "workerThreads(50)");
    assertFalse(
        RpcxServer.builder().maxQueuedCalls(100).config().virtualThreads(), "maxQueuedCalls(100)");
    assertFalse(
        RpcxServer.builder().executor(CALLER_RUNS).config().virtualThreads(), "executor");
    assertFalse(
        RpcxServer.builder().directExecutor().config().virtualThreads(), "directExecutor()");
  }

  /** A builder with virtual threads as {@code virtualThreads()} sets them (any Java). */
  private static RpcxServer.Builder virtualThreads() {
    return RpcxServer.builder().runOnVirtualThreads(ServerConfig.DEFAULT_VIRTUAL_THREAD_CALLS);
  }

  private static String buildFailure(RpcxServer.Builder builder) {
    return assertThrows(IllegalArgumentException.class, builder::config).getMessage();
  }
}
