package io.rpcx.testsuite.virtualthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.internal.runtime.VirtualThreads;
import io.rpcx.server.RpcxServer;
import io.rpcx.testsuite.ControlledService;
import io.rpcx.testsuite.ThreadPerTask;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * A server built with {@code virtualThreads()} runs each call on a virtual thread of its own and
 * refuses calls past its limit with RESOURCE_EXHAUSTED, as the worker pool does past its threads
 * and queue. Java 21+: {@code .ci/run} runs this package on the newest JDK of the machine.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VirtualThreadServerTest {

  /** Says which thread ran the call. */
  @RPCXClient(name = "threads")
  public interface ThreadReport {
    /** The name of the thread running the call, and "virtual" or "platform". */
    String servingThread();
  }

  /** The implementation. */
  @RPCXServer(name = "threads")
  public static final class ThreadReportImpl implements ThreadReport {
    @Override
    public String servingThread() {
      Thread thread = Thread.currentThread();
      return thread.getName() + (VirtualThreads.isVirtual(thread) ? " virtual" : " platform");
    }
  }

  /** The blocking {@code hold} of {@link ControlledService}, called asynchronously. */
  @RPCXClient(name = "controlled")
  interface Holder {
    CompletableFuture<String> hold(String text);
  }

  @Test
  void eachCallRunsOnAVirtualThreadOfItsOwnNamedRpcx() throws Exception {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new ThreadReportImpl())
            .virtualThreads().build().start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      ThreadReport report = client.create(ThreadReport.class);
      String first = report.servingThread();
      String second = report.servingThread();
      assertTrue(first.matches("rpcx-server-virtual-\\d+ virtual"), first);
      assertTrue(second.matches("rpcx-server-virtual-\\d+ virtual"), second);
      assertTrue(!first.equals(second), "two calls ran on one thread: " + first);
      assertEquals(0, server.stats().queuedCalls());
    } finally {
      server.stop();
    }
  }

  @Test
  void callsPastTheLimitAreRefusedWithResourceExhaustedNamingIt() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(3);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(service).virtualThreads(3).build()
            .start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      Holder holder = client.create(Holder.class);
      List<CompletableFuture<String>> held = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        held.add(holder.hold("held-" + i));
      }
      assertTrue(service.awaitHeld(10), "the 3 calls run at once");
      ExecutionException refused =
          assertThrows(
              ExecutionException.class, () -> holder.hold("one too many").get(10, TimeUnit.SECONDS));
      assertEquals(ResourceExhaustedException.class, refused.getCause().getClass());
      assertEquals(
          "controlled/hold failed on 127.0.0.1:" + server.port() + ": the server is overloaded"
              + " (all 3 calls it takes at once are running on virtual threads); controlled/hold"
              + " was not processed",
          refused.getCause().getMessage());
      assertEquals(3, service.startedCount());
      service.release();
      for (int i = 0; i < 3; i++) {
        assertEquals("held-" + i, held.get(i).get(10, TimeUnit.SECONDS));
      }
      // Finished calls make room again.
      assertEquals("after", holder.hold("after").get(10, TimeUnit.SECONDS));
    } finally {
      server.stop();
    }
  }

  @Test
  void theLimitPerConnectionHoldsAsWithAnyExecutor() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(2);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(service).virtualThreads()
            .maxConcurrentCallsPerConnection(2).build().start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      Holder holder = client.create(Holder.class);
      List<CompletableFuture<String>> held = List.of(holder.hold("a"), holder.hold("b"));
      assertTrue(service.awaitHeld(10));
      ExecutionException refused =
          assertThrows(ExecutionException.class, () -> holder.hold("c").get(10, TimeUnit.SECONDS));
      assertEquals(ResourceExhaustedException.class, refused.getCause().getClass());
      assertEquals(
          "controlled/hold failed on 127.0.0.1:" + server.port() + ": too many calls in flight"
              + " on this connection (limit 2); controlled/hold was not processed",
          refused.getCause().getMessage());
      service.release();
      for (CompletableFuture<String> call : held) {
        call.get(10, TimeUnit.SECONDS);
      }
    } finally {
      server.stop();
    }
  }

  @Test
  void stopLetsCallsOnVirtualThreadsFinish() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(1);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(service).virtualThreads().build()
            .start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      CompletableFuture<String> held = client.create(Holder.class).hold("held");
      assertTrue(service.awaitHeld(10));
      CompletableFuture<Void> stopped = CompletableFuture.runAsync(server::stop, ThreadPerTask.EXECUTOR);
      while (server.isRunning()) {
        Thread.onSpinWait(); // until the stop has begun
      }
      assertTrue(!stopped.isDone(), "the stop waits for the call in flight");
      service.release();
      assertEquals("held", held.get(10, TimeUnit.SECONDS));
      stopped.get(20, TimeUnit.SECONDS);
      assertEquals(0, server.callsInFlight());
    }
  }

  @Test
  void virtualThreadsAndAnotherChoiceOfWhereCallsRunFailTheBuildNamingBoth() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxServer.builder().service(new ThreadReportImpl()).virtualThreads()
                .workerThreads(50).build());
    assertEquals(
        "virtualThreads() and workerThreads(50) cannot be combined: every call runs on a virtual"
            + " thread of its own, started at once, so there is no worker pool to size or queue;"
            + " limit the calls in flight with virtualThreads(maxCallsInFlight)",
        e.getMessage());
  }
}
