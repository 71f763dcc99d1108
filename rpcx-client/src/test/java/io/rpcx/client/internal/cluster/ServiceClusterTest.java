package io.rpcx.client.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.LoadBalancing;
import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.TestCalls;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster under many concurrent callers: a server that is down gets one probe at a time, however
 * many callers find it probing at the same moment, and every other call goes to a healthy server.
 */
@Timeout(30)
class ServiceClusterTest {
  private static final int CALLERS = 8;
  private static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
  private static final String DOWN = "10.0.0.2:9000";

  @Test
  void aServerThatIsDownGetsOneProbeAtATimeWhileManyCallersGoOn() throws Exception {
    AtomicReference<Member> down = new AtomicReference<>();
    AtomicInteger probes = new AtomicInteger();
    List<String> violations = new ArrayList<>();
    AtomicInteger healthy = new AtomicInteger();
    Members members =
        new Members(
            (host, port) -> {
              String address = host + ":" + port;
              if (!address.equals(DOWN)) {
                return new TestChannel(address, call -> healthy.incrementAndGet());
              }
              // Refuses every call at once, as a server whose port is closed does.
              return new TestChannel(
                  address,
                  call -> {
                    Member member = down.get();
                    int inFlight = member.inFlight();
                    Member.State state = member.state(System.nanoTime());
                    if (inFlight != 1 || state != Member.State.PROBING) {
                      synchronized (violations) {
                        violations.add(state + " with " + inFlight + " in flight");
                      }
                    }
                    probes.incrementAndGet();
                    call.fail(new UnavailableException("connection refused", true, null));
                  });
            },
            // Probing again about every millisecond: hundreds of probes while the callers run.
            new Ejection(5, 1, 1));
    ServiceCluster cluster = new ServiceCluster("peeks", "a test", LoadBalancing.ROUND_ROBIN, members);
    cluster.onEndpoints(
        List.of(
            ServiceEndpoint.of("10.0.0.1", 9000),
            ServiceEndpoint.of("10.0.0.2", 9000),
            ServiceEndpoint.of("10.0.0.3", 9000)));
    for (Member member : cluster.members()) {
      if (member.address().equals(DOWN)) {
        down.set(member);
      }
    }
    for (int i = 0; i < 5; i++) {
      PendingCall call = TestCalls.call("peek", "x");
      down.get().start(call);
      down.get().ended(call, CallOutcome.UNAVAILABLE);
    }
    assertNotEquals(Member.State.AVAILABLE, down.get().state(System.nanoTime()), "ejected");

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

    assertTrue(probes.get() > 10, "the server that is down was probed again and again: " + probes);
    assertEquals(List.of(), violations, "calls that reached the server that is down beside a probe");
    assertEquals(sent.get() - probes.get(), healthy.get(), "every other call went to a healthy server");
  }
}
