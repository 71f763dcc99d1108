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
        buildFailure(executor(virtualThreads(), CALLER_RUNS)));
    ServerConfig.Builder direct = ServerConfig.builder();
    direct.directExecutor();
    direct.virtualThreads(500);
    assertEquals(
        "virtualThreads(500) and directExecutor() cannot be combined: each chooses where calls"
            + " run; keep one",
        buildFailure(direct));
  }

  @Test
  void virtualThreadsAndTheWorkerPoolsSizesCannotBeCombined() {
    ServerConfig.Builder threads = virtualThreads();
    threads.workerThreads(50);
    assertEquals(
        "virtualThreads() and workerThreads(50) cannot be combined: every call runs on a virtual"
            + " thread of its own, started at once, so there is no worker pool to size or queue;"
            + " limit the calls in flight with virtualThreads(maxCallsInFlight)",
        buildFailure(threads));
    ServerConfig.Builder queued = virtualThreads();
    queued.maxQueuedCalls(100);
    assertEquals(
        "virtualThreads() and maxQueuedCalls(100) cannot be combined: every call runs on a"
            + " virtual thread of its own, started at once, so there is no worker pool to size or"
            + " queue; limit the calls in flight with virtualThreads(maxCallsInFlight)",
        buildFailure(queued));
  }

  @Test
  void theLimitOfCallsOnVirtualThreadsIsPositiveAndByDefaultWhatThePoolAccepts() {
    assertEquals(10_200, virtualThreads().build().virtualThreadCalls());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().virtualThreads(0));
    assertEquals("maxCallsInFlight: 0 (expected: >= 1)", e.getMessage());
  }

  @Test
  void virtualThreadsAndTheWorkerPoolByNameCannotBeCombined() {
    ServerConfig.Builder both = virtualThreads();
    both.workerPool();
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
    assertFalse(ServerConfig.builder().build().virtualThreads());
  }

  @Test
  @EnabledForJreRange(min = JRE.JAVA_24)
  void fromJava24AServerNotToldWhereToRunCallsUsesAVirtualThreadPerCall() {
    ServerConfig unchosen = ServerConfig.builder().build();
    assertTrue(unchosen.virtualThreads());
    assertEquals(ServerConfig.DEFAULT_VIRTUAL_THREAD_CALLS, unchosen.virtualThreadCalls());
    ServerConfig.Builder pool = ServerConfig.builder();
    pool.workerPool();
    assertFalse(pool.build().virtualThreads(), "workerPool()");
    ServerConfig.Builder sized = ServerConfig.builder();
    sized.workerThreads(50);
    assertFalse(sized.build().virtualThreads(), "workerThreads(50)");
    ServerConfig.Builder queued = ServerConfig.builder();
    queued.maxQueuedCalls(100);
    assertFalse(queued.build().virtualThreads(), "maxQueuedCalls(100)");
    assertFalse(executor(ServerConfig.builder(), CALLER_RUNS).build().virtualThreads(), "executor");
    ServerConfig.Builder direct = ServerConfig.builder();
    direct.directExecutor();
    assertFalse(direct.build().virtualThreads(), "directExecutor()");
  }

  /** A configuration with virtual threads as {@code virtualThreads()} sets them (any Java). */
  private static ServerConfig.Builder virtualThreads() {
    ServerConfig.Builder config = ServerConfig.builder();
    config.virtualThreads(ServerConfig.DEFAULT_VIRTUAL_THREAD_CALLS);
    return config;
  }

  private static ServerConfig.Builder executor(ServerConfig.Builder config, Executor executor) {
    config.executor(executor);
    return config;
  }

  private static String buildFailure(ServerConfig.Builder config) {
    return assertThrows(IllegalArgumentException.class, config::build).getMessage();
  }
}
