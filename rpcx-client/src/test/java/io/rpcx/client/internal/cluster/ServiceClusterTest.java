package io.rpcx.client.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.EndpointStatus;
import io.rpcx.client.LoadBalancing;
import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.TestCalls;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster under many concurrent callers: a server that is down gets none of their calls while
 * another may take them (it is probed in the background instead), and every call goes to a healthy
 * server.
 */
@Timeout(30)
class ServiceClusterTest {
  private static final int CALLERS = 8;
  private static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
  private static final String DOWN = "10.0.0.2:9000";

  @Test
  void aServerThatIsDownGetsNoCallerCallWhileManyCallersGoOn() throws Exception {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    AtomicReference<TestChannel> downChannel = new AtomicReference<>();
    AtomicInteger reachedDown = new AtomicInteger();
    AtomicInteger healthy = new AtomicInteger();
    Members members =
        new Members(
            endpoint -> {
              String address = endpoint.address();
              if (!address.equals(DOWN)) {
                return new TestChannel(address, call -> healthy.incrementAndGet());
              }
              // Refuses every call at once, as a server whose port is closed does.
              TestChannel channel =
                  new TestChannel(
                      address,
                      call -> {
                        reachedDown.incrementAndGet();
                        call.fail(UnavailableException.notProcessed("connection refused"));
                      });
              downChannel.set(channel);
              return channel;
            },
            // Probed about every millisecond: hundreds of probes while the callers run.
            new Ejection(5, 1, 1),
            scheduler);
    ServiceCluster cluster = new ServiceCluster("peeks", "a test", LoadBalancing.ROUND_ROBIN, members);
    cluster.onEndpoints(
        List.of(
            ServiceEndpoint.of("10.0.0.1", 9000),
            ServiceEndpoint.of("10.0.0.2", 9000),
            ServiceEndpoint.of("10.0.0.3", 9000)));
    Member down = null;
    for (Member member : cluster.members()) {
      if (member.address().equals(DOWN)) {
        down = member;
      }
    }
    for (int i = 0; i < 5; i++) {
      PendingCall call = TestCalls.call("peek", "x");
      down.start(call);
      down.ended(call, CallOutcome.UNAVAILABLE);
    }
    assertNotEquals(EndpointStatus.State.AVAILABLE, down.state(System.nanoTime()), "ejected");
    int reachedBefore = reachedDown.get();

    CyclicBarrier together = new CyclicBarrier(CALLERS);
    AtomicInteger sent = new AtomicInteger();
    List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < CALLERS; t++) {
      Thread caller =
          new Thread(
              () -> {
                try {
                  together.await();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                long end = System.nanoTime() + RUN_NANOS;
                while (System.nanoTime() - end < 0) {
                  cluster.send(TestCalls.call("peek", "x"));
                  sent.incrementAndGet();
                }
              });
      callers.add(caller);
      caller.start();
    }
    for (Thread caller : callers) {
      caller.join();
    }
    scheduler.shutdownNow();

    assertTrue(
        downChannel.get().probes.get() > 10,
        "the server that is down was probed again and again: " + downChannel.get().probes);
    assertEquals(0, reachedDown.get() - reachedBefore, "callers' calls that reached it");
    assertEquals(sent.get(), healthy.get(), "every call went to a healthy server");
  }
}
