package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.testing.RpcxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Many threads share one persistent connection with many calls in flight, never mixing replies. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultiplexingTest {

  @RegisterExtension
  static final RpcxExtension rpcx = RpcxExtension.withServices(new EchoService.Impl());

  @Test
  void concurrentCallersEachGetTheirOwnReplyOverOneConnection() throws Exception {
    EchoService echo = rpcx.create(EchoService.class);
    int threads = 64;
    int callsPerThread = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  int mismatches = 0;
                  for (int i = 0; i < callsPerThread; i++) {
                    String sent = thread + ":" + i;
                    if (!sent.equals(echo.echo(sent))) {
                      mismatches++;
                    }
                  }
                  return mismatches;
                }));
      }
      int mismatches = 0;
      for (Future<Integer> result : results) {
        mismatches += result.get(50, TimeUnit.SECONDS);
      }
      assertEquals(0, mismatches);
      assertEquals(1, rpcx.server().connectionCount(), "one persistent connection");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void thousandsOfAsynchronousCallsCanBeInFlightAtOnce() throws Exception {
    EchoService echo = rpcx.create(EchoService.class);
    List<CompletableFuture<String>> futures = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      futures.add(echo.echoAsync("call-" + i));
    }
    for (int i = 0; i < futures.size(); i++) {
      assertEquals("call-" + i, futures.get(i).get(30, TimeUnit.SECONDS));
    }
  }
}
