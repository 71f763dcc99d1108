package io.rpcx.benchmarks.faults;

import io.rpcx.benchmarks.faults.NodeServer.Handle;
import io.rpcx.benchmarks.faults.NodeServer.Named;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.internal.protocol.Preface;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * What a burst of new TLS connections costs a server's other connections: a TLS server in a JVM of
 * its own ({@link NodeServer}), {@code --bystanders} threads calling it over two established
 * connections, and in each round {@code --connections} new connections opened at once from as
 * many loopback addresses (127.0.0.2 on), each completing the TLS handshake and the RPCX preface
 * exchange. Prints per round the handshakes per second (connections over the time until the last
 * one is through), each connection's time from connect to the server's preface (median, 99th
 * percentile, max), and the latency of the bystanders' calls made during the burst next to that of
 * the second before it. The first round is warm-up.
 *
 * <p>{@code --provider JDK|OPENSSL|AUTO} chooses the TLS implementation of the server and of the
 * bystanders' client ({@link io.rpcx.core.TlsConfig.Provider}; the connections of the burst are
 * the JDK's {@code SSLSocket}s); {@code --mutual} makes clients present certificates; {@code
 * --key RSA|EC} chooses the keys (RSA 2048 by default).
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.faults.TlsBurst \
 *     --connections 200 --rounds 6 --key RSA
 * </pre>
 */
public final class TlsBurst {

  private TlsBurst() {}

  public static void main(String[] args) throws Exception {
    int connections = 200;
    int bystanders = 4;
    int rounds = 6;
    boolean mutual = false;
    String key = "RSA";
    TlsConfig.Provider provider = TlsConfig.Provider.AUTO;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--connections" -> connections = Integer.parseInt(args[++i]);
        case "--bystanders" -> bystanders = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--mutual" -> mutual = true;
        case "--key" -> key = args[++i];
        case "--provider" -> provider = TlsConfig.Provider.valueOf(args[++i]);
        default -> {
          System.err.println("unknown option " + args[i] + " (expected: --connections N"
              + " --bystanders N --rounds N --mutual --key RSA|EC --provider JDK|OPENSSL|AUTO)");
          System.exit(2);
        }
      }
    }
    System.out.printf(
        "%d cores, %s; %s TLS, %s keys, server provider %s; %d new connections per round, %d"
            + " bystander threads on 2 connections; %d rounds, the first warm-up%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"),
        mutual ? "mutual" : "server-only", key, provider,
        connections, bystanders, rounds);
    Path folder = Files.createTempDirectory("rpcx-tls-burst");
    TlsFiles files = TlsFiles.create(folder, key);
    List<String> serverArgs =
        new ArrayList<>(List.of("tls", folder.toString(), "provider=" + provider));
    if (mutual) {
      serverArgs.add("mutual");
    }
    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<long[]> calls = new ConcurrentLinkedQueue<>();
    AtomicInteger bystanderFailures = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    try (Handle server = Handle.start("tls", List.of(), serverArgs);
        RpcxClient first = client(files, mutual, provider, server);
        RpcxClient second = client(files, mutual, provider, server)) {
      long start = System.nanoTime();
      first.create(Named.class).whoAmI(0);
      System.out.printf(
          "first call over TLS (a new server JVM and client): %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      second.create(Named.class).whoAmI(0);
      for (int t = 0; t < bystanders; t++) {
        Named named = (t % 2 == 0 ? first : second).create(Named.class);
        Thread thread =
            new Thread(
                () -> {
                  while (!stop.get()) {
                    long sent = System.nanoTime();
                    try {
                      named.whoAmI(0);
                      calls.add(new long[] {sent, System.nanoTime() - sent});
                    } catch (RpcxException e) {
                      bystanderFailures.incrementAndGet();
                    }
                  }
                },
                "bystander-" + t);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
      }
      SSLSocketFactory factory = files.clientContext(mutual).getSocketFactory();
      List<Double> rates = new ArrayList<>();
      List<Double> p99s = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        Thread.sleep(1000);
        calls.clear();
        Thread.sleep(1000);
        long burstStart = System.nanoTime();
        long[] baseline = latencies(calls, burstStart - TimeUnit.SECONDS.toNanos(1), burstStart);
        Burst burst = burst(factory, server.port, connections);
        long[] during = latencies(calls, burst.start, burst.end);
        System.out.printf(
            Locale.ROOT,
            "round %d%s: %d connections in %d ms: %.0f handshakes/s; connect to preface median"
                + " %d ms, p99 %d ms, max %d ms; %d failed%s; bystanders during the burst: %d"
                + " calls, median %.2f ms, p99 %.2f ms, max %.1f ms (the second before: %d calls,"
                + " p99 %.2f ms); bystander failures so far: %d%n",
            round + 1, round == 0 ? " (warm-up)" : "", burst.completed,
            TimeUnit.NANOSECONDS.toMillis(burst.end - burst.start),
            burst.completed * 1e9 / Math.max(1, burst.end - burst.start),
            millis(burst.durations, 0.5), millis(burst.durations, 0.99),
            millis(burst.durations, 1.0), burst.failures.values().stream().mapToInt(i -> i).sum(),
            burst.failures.isEmpty() ? "" : " " + burst.failures, during.length,
            fractionalMillis(during, 0.5), fractionalMillis(during, 0.99),
            fractionalMillis(during, 1.0), baseline.length, fractionalMillis(baseline, 0.99),
            bystanderFailures.get());
        if (round > 0) {
          rates.add(burst.completed * 1e9 / Math.max(1, burst.end - burst.start));
          p99s.add(fractionalMillis(during, 0.99));
        }
      }
      stop.set(true);
      for (Thread thread : threads) {
        thread.join(10_000);
      }
      Collections.sort(rates);
      Collections.sort(p99s);
      if (!rates.isEmpty()) {
        System.out.printf(
            Locale.ROOT,
            "rounds 2-%d: handshakes/s median %.0f (%.0f-%.0f); bystanders' p99 during the burst"
                + " median %.2f ms (%.2f-%.2f ms); bystander failures: %d%n",
            rounds, rates.get(rates.size() / 2), rates.get(0), rates.get(rates.size() - 1),
            p99s.get(p99s.size() / 2), p99s.get(0), p99s.get(p99s.size() - 1),
            bystanderFailures.get());
      }
    } finally {
      stop.set(true);
      for (Thread thread : threads) {
        thread.join(10_000);
      }
      try (var paths = Files.walk(folder)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  private static RpcxClient client(
      TlsFiles files, boolean mutual, TlsConfig.Provider provider, Handle server)
      throws Exception {
    return RpcxClient.builder()
        .target("127.0.0.1", server.port)
        .tls(files.client(mutual, provider))
        .defaultTimeout(java.time.Duration.ofSeconds(30))
        .build();
  }

  /** The connections of one burst: when it started and ended, each one's time, the failures. */
  private record Burst(
      long start, long end, int completed, long[] durations, Map<String, Integer> failures) {}

  /** Opens {@code count} TLS connections at once and waits until each exchanged prefaces. */
  private static Burst burst(SSLSocketFactory factory, int port, int count)
      throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(count);
    CountDownLatch close = new CountDownLatch(1);
    long[] durations = new long[count];
    long[] ends = new long[count];
    Map<String, Integer> failures = new ConcurrentHashMap<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int index = i;
      String source = "127.0.0." + (2 + i % 250);
      Thread thread =
          new Thread(
              () -> {
                try (Socket plain = new Socket()) {
                  plain.bind(new InetSocketAddress(source, 0));
                  go.await();
                  long started = System.nanoTime();
                  plain.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
                  plain.setSoTimeout(30_000);
                  try (SSLSocket tls =
                      (SSLSocket) factory.createSocket(plain, "127.0.0.1", port, true)) {
                    tls.startHandshake();
                    tls.getOutputStream().write(Preface.bytes());
                    tls.getOutputStream().flush();
                    readFully(tls.getInputStream(), Preface.LENGTH);
                    ends[index] = System.nanoTime();
                    durations[index] = ends[index] - started;
                    done.countDown();
                    close.await();
                  }
                } catch (IOException | RuntimeException e) {
                  failures.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1,
                      Integer::sum);
                  done.countDown();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "burst-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    Thread.sleep(200); // every thread waits at the gate
    long start = System.nanoTime();
    go.countDown();
    done.await(120, TimeUnit.SECONDS);
    long end = start;
    int completed = 0;
    for (long e : ends) {
      if (e != 0) {
        end = Math.max(end, e);
        completed++;
      }
    }
    close.countDown();
    for (Thread thread : threads) {
      thread.join(10_000);
    }
    long[] completedDurations = Arrays.stream(durations).filter(d -> d > 0).sorted().toArray();
    return new Burst(start, end, completed, completedDurations, failures);
  }

  private static void readFully(InputStream in, int length) throws IOException {
    for (int read = 0; read < length; ) {
      int n = in.read(new byte[length - read]);
      if (n < 0) {
        throw new IOException("the server closed the connection before its preface");
      }
      read += n;
    }
  }

  /** The latencies of the calls sent in [{@code from}, {@code to}), sorted. */
  private static long[] latencies(ConcurrentLinkedQueue<long[]> calls, long from, long to) {
    return calls.stream()
        .filter(call -> call[0] >= from && call[0] < to)
        .mapToLong(call -> call[1])
        .sorted()
        .toArray();
  }

  private static long millis(long[] sorted, double quantile) {
    return sorted.length == 0
        ? -1
        : TimeUnit.NANOSECONDS.toMillis(sorted[index(sorted.length, quantile)]);
  }

  private static double fractionalMillis(long[] sorted, double quantile) {
    return sorted.length == 0 ? -1 : sorted[index(sorted.length, quantile)] / 1e6;
  }

  private static int index(int length, double quantile) {
    return Math.min(length - 1, (int) Math.ceil(quantile * length) - 1);
  }
}
