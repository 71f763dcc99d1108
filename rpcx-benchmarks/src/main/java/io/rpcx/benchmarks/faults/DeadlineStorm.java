package io.rpcx.benchmarks.faults;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.server.RpcxServer;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How late asynchronous callers are released when thousands of deadlines pass together: a server
 * on 127.0.0.1 holds every call; the client makes {@code --calls} asynchronous calls with a
 * {@code --timeout-ms} timeout as fast as it can, and records, for each, how long after its
 * deadline its future completed. Each round's replies are then released, so they arrive after
 * the deadlines and must be discarded (before the next round starts). Prints the lateness per
 * round (median, 99th percentile, max, calls more than 20 ms late, and the GC pauses during the
 * round) and whether every call of the rounds after {@code --warmup} was released within its
 * deadline + 20 ms and none was completed by a late reply.
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.faults.DeadlineStorm \
 *     --calls 5000 --timeout-ms 100 --rounds 40 --warmup 20
 * </pre>
 */
public final class DeadlineStorm {
  /** The lateness allowed past each deadline. */
  static final long ALLOWED_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  @RPCXClient(name = "stalled")
  public interface Stalled {
    CompletableFuture<String> stall(String text);
  }

  @RPCXServer(name = "stalled")
  public static final class StalledImpl implements Stalled {
    final ConcurrentLinkedQueue<CompletableFuture<String>> held = new ConcurrentLinkedQueue<>();

    @Override
    public CompletableFuture<String> stall(String text) {
      CompletableFuture<String> future = new CompletableFuture<>();
      held.add(future);
      return future;
    }

    void release() {
      CompletableFuture<String> future;
      while ((future = held.poll()) != null) {
        future.complete("late");
      }
    }
  }

  private DeadlineStorm() {}

  private static long gcCount() {
    long count = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
    }
    return count;
  }

  private static long gcMillis() {
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      millis += Math.max(0, gc.getCollectionTime());
    }
    return millis;
  }

  public static void main(String[] args) throws Exception {
    int calls = 5000;
    long timeoutMillis = 100;
    int rounds = 40;
    int warmup = 20;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--calls":
          calls = Integer.parseInt(args[i + 1]);
          break;
        case "--timeout-ms":
          timeoutMillis = Long.parseLong(args[i + 1]);
          break;
        case "--rounds":
          rounds = Integer.parseInt(args[i + 1]);
          break;
        case "--warmup":
          warmup = Integer.parseInt(args[i + 1]);
          break;
        default:
          System.err.println("unknown option " + args[i]
              + " (expected: --calls N --timeout-ms N --rounds N --warmup N)");
          System.exit(2);
      }
    }
    System.out.printf(
        "%d cores, %s; %d calls with a %d ms timeout per round, %d rounds, %d of warm-up%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"), calls,
        timeoutMillis, rounds, warmup);
    StalledImpl service = new StalledImpl();
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
    int failedRounds = 0;
    int lateCompletions = 0;
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port())
            .defaultTimeout(Duration.ofMillis(timeoutMillis)).build()) {
      Stalled stalled = client.create(Stalled.class);
      for (int round = 0; round < rounds; round++) {
        long gcCountBefore = gcCount();
        long gcMillisBefore = gcMillis();
        long[] late = new long[calls];
        AtomicInteger notTimeouts = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(calls);
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (int i = 0; i < calls; i++) {
          int index = i;
          long sent = System.nanoTime();
          stalled.stall("x").whenComplete(
              (value, failure) -> {
                late[index] = System.nanoTime() - sent - timeoutNanos;
                if (!(failure instanceof CallTimeoutException)) {
                  notTimeouts.incrementAndGet();
                }
                done.countDown();
              });
        }
        if (!done.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("calls still pending after 60 s");
        }
        long gcs = gcCount() - gcCountBefore;
        long gcMillis = gcMillis() - gcMillisBefore;
        service.release();
        // The late replies are the server's work and the client's to discard: let them pass
        // before the next round's deadlines, which are what is measured.
        while (server.callsInFlight() > 0) {
          Thread.sleep(1);
        }
        Thread.sleep(200);
        Arrays.sort(late);
        long overAllowed = Arrays.stream(late).filter(l -> l > ALLOWED_NANOS).count();
        boolean counted = round >= warmup;
        if (counted && (overAllowed > 0 || notTimeouts.get() > 0)) {
          failedRounds++;
        }
        lateCompletions += notTimeouts.get();
        System.out.printf(
            Locale.ROOT,
            "round %2d%s: late by median %6.1f ms, p99 %6.1f ms, max %6.1f ms; %5d over 20 ms;"
                + " %d not timeouts; earliest %+.1f ms; %d GC pauses, %d ms%n",
            round, counted ? "" : " (warm-up)", late[calls / 2] / 1e6, late[calls * 99 / 100] / 1e6,
            late[calls - 1] / 1e6, overAllowed, notTimeouts.get(), late[0] / 1e6, gcs, gcMillis);
      }
    } finally {
      server.stop(Duration.ZERO);
    }
    System.out.printf(
        "%s: %d of %d measured rounds had a caller released more than 20 ms after its deadline;"
            + " %d calls completed otherwise than by their timeout%n",
        failedRounds == 0 && lateCompletions == 0 ? "PASS" : "FAIL", failedRounds,
        rounds - warmup, lateCompletions);
  }
}
