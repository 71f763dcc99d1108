package io.rpcx.benchmarks.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.Deployment;
import io.rpcx.benchmarks.api.Systems;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Payloads;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The raw Netty systems as baselines: the batching floor and the per-call-flush variant carry every
 * string and byte workload exactly, match every reply to its caller under many concurrent callers,
 * and fail pending calls when closed instead of leaving them waiting.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettyFloorTest {
  private static final int THREADS = 32;
  private static final int CALLS = 1_000;

  @ParameterizedTest
  @ValueSource(strings = {"netty", "netty-flush-per-call"})
  void everyStringAndByteWorkloadComesBackEqual(String name) throws Exception {
    try (Deployment d = Systems.start(name)) {
      BenchmarkClient client = d.client();
      for (Workload workload : Workload.values()) {
        if (workload == Workload.BYTES_1M) {
          byte[] bytes = (byte[]) workload.payload();
          assertArrayEquals(bytes, client.echoBytes(bytes), workload.id());
        } else if (!workload.carriesObjects()) {
          String text = (String) workload.payload();
          assertEquals(text, client.echo(text), workload.id());
        }
      }
      assertEquals("", client.echo(""));
      assertArrayEquals(new byte[0], client.echoBytes(new byte[0]));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"netty", "netty-flush-per-call"})
  void manyConcurrentCallersEachGetTheirOwnReply(String name) throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(THREADS);
    try (Deployment d = Systems.start(name)) {
      BenchmarkClient client = d.client();
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        done.add(
            callers.submit(
                () -> {
                  for (int i = 0; i < CALLS; i++) {
                    // Distinct per thread and call, of varying length, so a mixed-up reply shows.
                    String text = thread + ":" + i + ":" + "x".repeat(i % 64);
                    String reply = client.echo(text);
                    if (!text.equals(reply)) {
                      throw new AssertionError("sent " + text + ", got " + reply);
                    }
                  }
                  return CALLS;
                }));
      }
      int total = 0;
      for (Future<Integer> f : done) {
        total += f.get(50, TimeUnit.SECONDS);
      }
      assertEquals(THREADS * CALLS, total);
      byte[] bytes = Payloads.binary(Payloads.MIB);
      assertArrayEquals(bytes, client.echoBytes(bytes));
    } finally {
      callers.shutdownNow();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"netty", "netty-flush-per-call"})
  void closingFailsPendingCallsAndLaterOnes(String name) throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(4);
    // A peer that reads requests and never answers, so calls stay pending.
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      BenchmarkClient client = Systems.get(name).connect(silent.getLocalPort());
      List<Future<String>> calls = new ArrayList<>();
      try (Socket peer = silent.accept()) {
        for (int i = 0; i < 4; i++) {
          calls.add(callers.submit(() -> client.echo("x")));
        }
        // Each request is 9 bytes (length, id, "x"): once all arrived, all four are pending.
        InputStream in = peer.getInputStream();
        assertEquals(4 * 9, in.readNBytes(4 * 9).length);
        client.close();
        for (Future<String> call : calls) {
          ExecutionException e =
              assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
          assertInstanceOf(IllegalStateException.class, e.getCause());
          assertInstanceOf(ClosedChannelException.class, e.getCause().getCause());
        }
      }
      IllegalStateException after =
          assertThrows(IllegalStateException.class, () -> client.echo("y"));
      assertInstanceOf(ClosedChannelException.class, after.getCause());
    } finally {
      callers.shutdownNow();
    }
  }
}
