package io.rpcx.testsuite.virtualthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.internal.runtime.VirtualThreads;
import io.rpcx.core.internal.transport.Transports;
import io.rpcx.server.RpcxServer;
import io.netty.util.ResourceLeakDetector;
import io.rpcx.testsuite.EchoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * A thousand virtual threads calling through one proxy, each blocking on its call: no carrier is
 * ever pinned while a caller waits (the JDK's {@code jdk.VirtualThreadPinned} events, recorded with
 * no threshold), whichever executor the server runs calls on, and the callers get no pooled-buffer
 * cache each. Java 21+: {@code .ci/run} runs this package on the newest JDK of the machine.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VirtualThreadCallersTest {
  private static final int CALLERS = 1_000;
  private static final int CALLS_EACH = 20;

  @Test
  void blockingCallsFromAThousandVirtualThreadsNeverPinACarrier() throws Exception {
    assertEquals(List.of(), pinsOnceWarm(RpcxServer.Builder::workerPool), "carriers pinned");
  }

  @Test
  void norWithTheServerOnVirtualThreadsToo() throws Exception {
    assertEquals(List.of(), pinsOnceWarm(RpcxServer.Builder::virtualThreads), "carriers pinned");
  }

  @Test
  void virtualCallersAndVirtualServerThreadsGetNoPooledBufferCacheEach() throws Exception {
    int before = Transports.platformThreadCaches();
    try (Calls calls = Calls.to(RpcxServer.Builder::virtualThreads)) {
      calls.fromVirtualThreads(CALLS_EACH);
    }
    int made = Transports.platformThreadCaches() - before;
    // Each event loop and platform thread that allocates has one; with the pooled allocator alone
    // there were 3,128 here: one per caller and one per call served not yet collected.
    assertTrue(made < 32, made + " caches made for " + CALLERS + " virtual callers");
  }

  /**
   * The pins while {@value #CALLERS} virtual threads make {@value #CALLS_EACH} calls each, after a
   * first round has loaded the classes of the path: a virtual thread that waits for a class
   * another thread is loading or initializing pins its carrier (JDK 25 still does, JEP 491), once
   * per class and JVM, which would say nothing about how calls wait. Netty's leak detector is off
   * for the recorded round: for each allocation it samples (every one at the PARANOID level the
   * test kit sets in this JVM) it records a stack trace, whose {@code Throwable} constructor can
   * pin on a contended monitor (seen once in CI, in {@code ResourceLeakDetector$TraceRecord}):
   * Netty's diagnostics, not how RPCX's calls wait.
   */
  private static List<String> pinsOnceWarm(UnaryOperator<RpcxServer.Builder> server)
      throws Exception {
    ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
    try (Calls calls = Calls.to(server)) {
      calls.fromVirtualThreads(5);
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
      return PinnedCarriers.during(() -> calls.fromVirtualThreads(CALLS_EACH));
    } finally {
      ResourceLeakDetector.setLevel(level);
    }
  }

  /** The check above sees pins: a virtual thread that parks in a class initializer pins. */
  @Test
  void theRecordingSeesACarrierPinnedByParkingInAClassInitializer() throws Exception {
    List<String> pins =
        PinnedCarriers.during(
            () -> {
              Thread thread = VirtualThreads.factory("test-pin-").newThread(ParksWhenLoaded::touch);
              thread.start();
              thread.join(TimeUnit.SECONDS.toMillis(30));
            });
    assertEquals(1, pins.size(), pins.toString());
    assertTrue(pins.get(0).contains("ParksWhenLoaded.<clinit>"), pins.get(0));
  }

  /** Parks while the JVM initializes it, which pins a virtual thread's carrier. */
  private static final class ParksWhenLoaded {
    static {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }

    static void touch() {}
  }

  /** A server of {@link EchoService} on loopback and a client's proxy of it. */
  private static final class Calls implements AutoCloseable {
    private final RpcxServer server;
    private final RpcxClient client;
    private final EchoService echo;

    private Calls(RpcxServer server) {
      this.server = server;
      this.client = RpcxClient.builder().target("127.0.0.1", server.port()).build();
      this.echo = client.create(EchoService.class);
      echo.echo("connect"); // connects before the callers start
    }

    /** To a server built with {@code server}. */
    static Calls to(UnaryOperator<RpcxServer.Builder> server) {
      return new Calls(
          server.apply(RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl()))
              .build()
              .start());
    }

    /**
     * {@code CALLERS} virtual threads each make {@code callsEach} blocking echo calls through
     * the one proxy; every reply is checked.
     */
    void fromVirtualThreads(int callsEach) throws InterruptedException {
      Queue<String> wrong = new ConcurrentLinkedQueue<>();
      ThreadFactory callers = VirtualThreads.factory("test-caller-");
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < CALLERS; i++) {
        int caller = i;
        Thread thread =
            callers.newThread(
                () -> {
                  for (int call = 0; call < callsEach; call++) {
                    String text = caller + "/" + call;
                    try {
                      String reply = echo.echo(text);
                      if (!text.equals(reply)) {
                        wrong.add(text + " answered " + reply);
                      }
                    } catch (RuntimeException e) {
                      wrong.add(text + " failed: " + e);
                    }
                  }
                });
        thread.start();
        threads.add(thread);
      }
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(60));
        assertTrue(!thread.isAlive(), thread + " still calling after 60 s");
      }
      assertEquals(List.of(), List.copyOf(wrong).subList(0, Math.min(5, wrong.size())));
    }

    @Override
    public void close() {
      try {
        client.close();
      } finally {
        server.stop();
      }
    }
  }
}
