package io.rpcx.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.rpcx.micrometer.RpcxServerObservations;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An HTTP call is observed as an RPCX call is: rpcx-micrometer's interceptor times it under the
 * method's name, with the status it ended with.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpObservedTest {

  @Test
  void httpCallsAreTimedByMethodAndStatus() throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    ObservationRegistry observations = ObservationRegistry.create();
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    RpcxServer.Builder builder =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shop.Impl())
            .http(RpcxHttp.builder().build());
    RpcxServerObservations.instrument(builder, observations);
    RpcxServer server = builder.build().start();
    try {
      Http http = Http.of(server.port());
      for (int i = 0; i < 3; i++) {
        assertEquals(200, http.post("/shop/find", "[" + i + "]").statusCode());
      }
      assertEquals(500, http.post("/shop/find", "[-1]").statusCode());

      assertEquals(3, count(meters, "OK", 3));
      assertEquals(1, count(meters, "REMOTE_FAILURE", 1));
    } finally {
      server.stop(Duration.ofSeconds(5));
    }
  }

  /**
   * The count of the timer of {@code shop/find} calls that ended with {@code status}, once it
   * reached {@code expected} or 10 s passed: an observation stops on the call's thread, after its
   * answer is written.
   */
  private static long count(SimpleMeterRegistry meters, String status, long expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Timer timer =
          meters
              .find("rpc.server.call.duration")
              .tag("rpc.method", "shop/find")
              .tag("rpc.status_code", status)
              .timer();
      long count = timer == null ? 0 : timer.count();
      if (count >= expected || System.nanoTime() > deadline) {
        return count;
      }
      Thread.sleep(10);
    }
  }
}
