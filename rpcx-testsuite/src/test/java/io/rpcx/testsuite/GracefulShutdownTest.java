package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Stopping a server loses none of the calls it accepted. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GracefulShutdownTest {

  @RPCXClient(name = "controlled")
  interface AsyncHolder {
    CompletableFuture<String> holdAsync(String text);
  }

  @Test
  void fiveHundredCallsInFlightDuringStopAllSucceed() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(500);
    RpcxServer server = RpcxServer.builder().bindAddress("127.0.0.1").service(service).build().start();
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port()).defaultTimeout(Duration.ofSeconds(30)).build()) {
      AsyncHolder holder = client.create(AsyncHolder.class);
      List<CompletableFuture<String>> calls = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        calls.add(holder.holdAsync("call-" + i));
      }
      assertTrue(service.awaitHeld(20), "all 500 calls are running on the server");
      assertEquals(500, server.callsInFlight());

      CompletableFuture<Void> stopping =
          CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(20)), ThreadPerTask.EXECUTOR);
      while (server.isRunning()) {
        Thread.onSpinWait();
      }
      assertFalse(stopping.isDone());
      service.release();

      int failed = 0;
      for (int i = 0; i < 500; i++) {
        try {
          assertEquals("call-" + i, calls.get(i).get(20, TimeUnit.SECONDS));
        } catch (Exception e) {
          failed++;
        }
      }
      assertEquals(0, failed);
      stopping.get(20, TimeUnit.SECONDS);
      assertEquals(0, client.callsInFlight());
    } finally {
      service.release();
      server.stop(Duration.ZERO);
    }
  }
}
