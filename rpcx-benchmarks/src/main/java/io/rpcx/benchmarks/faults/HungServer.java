package io.rpcx.benchmarks.faults;

import io.rpcx.benchmarks.faults.NodeServer.Handle;
import io.rpcx.benchmarks.faults.NodeServer.Named;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a server that hangs costs its clients: two servers in JVMs of their own ({@link
 * NodeServer}), {@code --callers} threads calling them through one client with the default
 * balancer and a {@code --timeout-ms} timeout; in each round one server is stopped with {@code
 * kill -STOP} (its connections stay open, nothing is answered) for {@code --stopped-ms}, then let
 * go on with {@code kill -CONT}, and the tool waits until the client uses both again. Every attempt
 * is recorded by a client interceptor (server, start, end, status), so each round prints: the
 * calls stuck on the stopped server when it stopped, the attempts sent to it afterwards by how
 * long after the stop they were sent, the timeouts of those (the calls the hang cost beyond the
 * ones it caught), other failures, when the client stopped sending it calls and when its
 * endpoint state left AVAILABLE.
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.faults.HungServer \
 *     --callers 48 --timeout-ms 2000 --work-ms 1 --rounds 6 --stopped-ms 4000
 * </pre>
 */
public final class HungServer {
  /** Where attempts sent after the stop are counted: from each bound to the next, in ms. */
  private static final long[] BUCKETS_MS = {0, 100, 250, 500, 1000, 2000};

  private static final RpcxContext.Key<Long> STARTED = RpcxContext.Key.of("started", Long.class);

  /** One attempt, as the interceptor saw it. */
  private record Attempt(String server, long startNanos, long endNanos, StatusCode status) {}

  /** Records every attempt that ends. */
  private static final class Recorder implements ClientInterceptor {
    final ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();

    @Override
    public void onStart(ClientCall call) {
      call.attach(STARTED, System.nanoTime());
    }

    @Override
    public void onEnd(ClientCall call, CallResult result) {
      Long started = call.attachment(STARTED);
      attempts.add(
          new Attempt(
              call.server(),
              started == null ? System.nanoTime() : started,
              System.nanoTime(),
              result.status()));
    }
  }

  private HungServer() {}

  public static void main(String[] args) throws Exception {
    int callers = 48;
    long timeoutMillis = 2000;
    int workMillis = 1;
    int rounds = 6;
    long stoppedMillis = 4000;
    long warmupMillis = 5000;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--callers" -> callers = Integer.parseInt(args[i + 1]);
        case "--timeout-ms" -> timeoutMillis = Long.parseLong(args[i + 1]);
        case "--work-ms" -> workMillis = Integer.parseInt(args[i + 1]);
        case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
        case "--stopped-ms" -> stoppedMillis = Long.parseLong(args[i + 1]);
        case "--warmup-ms" -> warmupMillis = Long.parseLong(args[i + 1]);
        default -> {
          System.err.println("unknown option " + args[i] + " (expected: --callers N --timeout-ms N"
              + " --work-ms N --rounds N --stopped-ms N --warmup-ms N)");
          System.exit(2);
        }
      }
    }
    System.out.printf(
        "%d cores, %s; %d callers, %d ms timeout, %d ms of work per call; %d rounds, a server"
            + " stopped for %d ms in each%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"),
        callers, timeoutMillis, workMillis, rounds, stoppedMillis);
    Recorder recorder = new Recorder();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    int[] totals = new int[4]; // sent after the stop, of those after 250 ms, timeouts, failures
    try (Handle a = Handle.start("a");
        Handle b = Handle.start("b");
        RpcxClient client =
            RpcxClient.builder()
                .targets(Named.class, a.address(), b.address())
                .defaultTimeout(Duration.ofMillis(timeoutMillis))
                .intercept(recorder)
                .build()) {
      Named named = client.create(Named.class);
      int work = workMillis;
      for (int t = 0; t < callers; t++) {
        Thread caller =
            new Thread(
                () -> {
                  while (!stop.get()) {
                    try {
                      named.whoAmI(work);
                    } catch (RpcxException e) {
                      // recorded by the interceptor
                    }
                  }
                },
                "caller-" + t);
        caller.setDaemon(true);
        threads.add(caller);
        caller.start();
      }
      Thread.sleep(warmupMillis);
      Map<String, Integer> warmupFailures = new java.util.TreeMap<>();
      for (Attempt attempt : recorder.attempts) {
        if (attempt.status() != StatusCode.OK) {
          warmupFailures.merge(attempt.status() + " at " + attempt.server(), 1, Integer::sum);
        }
      }
      System.out.printf(
          "warm-up: %d attempts, failed: %s%n",
          recorder.attempts.size(), warmupFailures.isEmpty() ? "none" : warmupFailures);
      Handle[] nodes = {a, b};
      for (int round = 0; round < rounds; round++) {
        Handle hung = nodes[round % 2];
        recorder.attempts.clear(); // attempts that end from now on; none started after it ended
        hung.signal("STOP");
        long stopped = System.nanoTime(); // kill has returned: the signal was delivered
        long outOfRotation = -1;
        long resumeAt = stopped + TimeUnit.MILLISECONDS.toNanos(stoppedMillis);
        while (System.nanoTime() < resumeAt) {
          if (outOfRotation < 0 && state(client, hung) != EndpointStatus.State.AVAILABLE) {
            outOfRotation = System.nanoTime() - stopped;
          }
          Thread.sleep(5);
        }
        long resumed = System.nanoTime();
        hung.signal("CONT");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!bothAvailable(client) && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        long back = System.nanoTime() - resumed;
        Thread.sleep(Math.max(timeoutMillis + 500, 2000)); // every attempt of the window ended
        totals = add(totals, report(round, hung, recorder, stopped, resumed, outOfRotation, back));
        Thread.sleep(2000); // steady again before the next stop
      }
      stop.set(true);
      for (Thread thread : threads) {
        thread.join(10_000);
      }
    } finally {
      stop.set(true);
    }
    System.out.printf(
        "total over %d rounds: %d attempts sent to a stopped server after it stopped, %d of them"
            + " 250 ms or more after; %d timeouts of those; %d other failed attempts%n",
        rounds, totals[0], totals[1], totals[2], totals[3]);
  }

  private static int[] add(int[] a, int[] b) {
    int[] sum = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      sum[i] = a[i] + b[i];
    }
    return sum;
  }

  private static EndpointStatus.State state(RpcxClient client, Handle node) {
    for (EndpointStatus status : client.endpoints(Named.class)) {
      if (status.address().equals(node.address())) {
        return status.state();
      }
    }
    return EndpointStatus.State.UNREACHABLE;
  }

  private static boolean bothAvailable(RpcxClient client) {
    return client.endpoints(Named.class).stream()
        .allMatch(status -> status.state() == EndpointStatus.State.AVAILABLE);
  }

  /** Prints one round; returns its counts for the total. */
  private static int[] report(
      int round,
      Handle hung,
      Recorder recorder,
      long stopped,
      long resumed,
      long outOfRotationNanos,
      long backNanos) {
    int stuck = 0;
    int[] sentAfter = new int[BUCKETS_MS.length];
    int timeoutsOfSentAfter = 0;
    int okDuringStop = 0;
    long lastSent = -1;
    Map<StatusCode, Integer> otherFailures = new EnumMap<>(StatusCode.class);
    for (Attempt attempt : recorder.attempts) {
      boolean toHung = hung.address().equals(attempt.server());
      long offset = attempt.startNanos() - stopped;
      if (attempt.status() == StatusCode.OK) {
        if (attempt.startNanos() >= stopped && attempt.startNanos() < resumed) {
          okDuringStop++;
        }
      } else if (attempt.status() != StatusCode.TIMEOUT) {
        otherFailures.merge(attempt.status(), 1, Integer::sum);
      }
      if (!toHung || attempt.startNanos() >= resumed) {
        continue;
      }
      if (offset < 0) {
        if (attempt.status() != StatusCode.OK) {
          stuck++; // not answered before the stop
        }
        continue;
      }
      long offsetMillis = TimeUnit.NANOSECONDS.toMillis(offset);
      int bucket = BUCKETS_MS.length - 1;
      while (offsetMillis < BUCKETS_MS[bucket]) {
        bucket--;
      }
      sentAfter[bucket]++;
      lastSent = Math.max(lastSent, offset);
      if (attempt.status() == StatusCode.TIMEOUT) {
        timeoutsOfSentAfter++;
      }
    }
    StringBuilder buckets = new StringBuilder();
    int total = 0;
    int late = 0;
    for (int i = 0; i < BUCKETS_MS.length; i++) {
      buckets.append(i == 0 ? "" : ", ")
          .append(BUCKETS_MS[i])
          .append(i + 1 < BUCKETS_MS.length ? "-" + BUCKETS_MS[i + 1] : "+")
          .append(" ms: ")
          .append(sentAfter[i]);
      total += sentAfter[i];
      if (BUCKETS_MS[i] >= 250) {
        late += sentAfter[i];
      }
    }
    int failures = otherFailures.values().stream().mapToInt(Integer::intValue).sum();
    System.out.printf(
        Locale.ROOT,
        "round %d (%s stopped): %d calls stuck on it at the stop; %d attempts sent to it after"
            + " the stop (%s), the last %s after; %d of them timed out; other failed attempts:"
            + " %s; out of rotation after %s; %d calls answered by the other server while it was"
            + " stopped; both in rotation %d ms after SIGCONT%n",
        round + 1, hung.name, stuck, total, buckets,
        lastSent < 0 ? "none" : TimeUnit.NANOSECONDS.toMillis(lastSent) + " ms",
        timeoutsOfSentAfter, otherFailures.isEmpty() ? "none" : otherFailures,
        outOfRotationNanos < 0
            ? "never"
            : TimeUnit.NANOSECONDS.toMillis(outOfRotationNanos) + " ms",
        okDuringStop, TimeUnit.NANOSECONDS.toMillis(backNanos));
    return new int[] {total, late, timeoutsOfSentAfter, failures};
  }
}
