package io.rpcx.benchmarks.rebalance;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long after scaling from 2 servers to 4 the new ones take their share of the calls, when
 * clients reach the servers through one address (a {@link TcpBalancer}, as a Kubernetes ClusterIP
 * Service or a TCP load balancer), with and without a maximum connection age on the servers.
 *
 * <p>Four servers and the balancer run in this JVM on 127.0.0.1; {@code --clients} clients (each
 * an {@code RpcxClient}, so one connection each) call through the balancer from {@code
 * --callers} threads each. The balancer starts with servers 1 and 2; after {@code --before}
 * seconds, servers 3 and 4 are added. The tool reports, every second, each server's share of the
 * calls answered in that second, and how long after the scale-up servers 3 and 4 together first
 * answered at least 40% of a second's calls (80% of their fair half); it stops then, or after
 * {@code --horizon} seconds. One run with the age, one without:
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.rebalance.RebalanceTool \
 *     --max-connection-age 10 --grace 5 --clients 16 --callers 2 --out rpcx-benchmarks/target/rebalance
 * java -cp ... RebalanceTool --max-connection-age 0 ...   # connections live for ever
 * </pre>
 */
public final class RebalanceTool {
  /** The share of the calls servers 3 and 4 must answer together: 80% of their fair 50%. */
  private static final double TARGET_SHARE = 0.4;

  /** What one run found. */
  public record Result(double secondsToShare, double lastShare, List<String> seconds) {
    /** Whether the new servers reached their share within the horizon. */
    public boolean reached() {
      return secondsToShare >= 0;
    }
  }

  private RebalanceTool() {}

  public static void main(String[] args) throws Exception {
    int age = 0;
    int grace = 5;
    int clients = 16;
    int callers = 2;
    int before = 3;
    int horizon = 60;
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--max-connection-age" -> age = Integer.parseInt(value);
        case "--grace" -> grace = Integer.parseInt(value);
        case "--clients" -> clients = Integer.parseInt(value);
        case "--callers" -> callers = Integer.parseInt(value);
        case "--before" -> before = Integer.parseInt(value);
        case "--horizon" -> horizon = Integer.parseInt(value);
        case "--out" -> out = Path.of(value);
        default -> {
          System.err.println(
              "usage: RebalanceTool [--max-connection-age SECONDS (0: none)] [--grace SECONDS]"
                  + " [--clients N] [--callers N] [--before SECONDS] [--horizon SECONDS]"
                  + " [--out DIR]");
          System.exit(2);
        }
      }
      i++;
    }
    System.out.printf(
        "cores: %d; %d clients x %d callers through a TCP balancer; max connection age: %s%n",
        Runtime.getRuntime().availableProcessors(), clients, callers,
        age == 0 ? "none" : age + " s (grace " + grace + " s)");
    Result result =
        run(age == 0 ? null : Duration.ofSeconds(age), Duration.ofSeconds(grace), clients, callers,
            Duration.ofSeconds(before), Duration.ofSeconds(horizon));
    result.seconds().forEach(System.out::println);
    String summary =
        result.reached()
            ? String.format(Locale.ROOT,
                "servers 3 and 4 answered >= 40%% of the calls %.1f s after the scale-up",
                result.secondsToShare())
            : String.format(Locale.ROOT,
                "servers 3 and 4 did not reach 40%% of the calls in %d s (last second: %.1f%%)",
                horizon, 100 * result.lastShare());
    System.out.println(summary);
    if (out != null) {
      Files.createDirectories(out);
      Path file = out.resolve("rebalance-age-" + age + ".txt");
      List<String> lines = new ArrayList<>(result.seconds());
      lines.add(summary);
      Files.write(file, lines);
      System.out.println("per second: " + file);
    }
    System.exit(0);
  }

  /** One measurement; {@code age} {@code null} for connections that live for ever. */
  public static Result run(
      Duration age, Duration grace, int clients, int callers, Duration before, Duration horizon)
      throws IOException, InterruptedException {
    List<RpcxServer> servers = new ArrayList<>();
    List<LongAdder> calls = new ArrayList<>();
    List<RpcxClient> rpcxClients = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    AtomicBoolean calling = new AtomicBoolean(true);
    LongAdder failures = new LongAdder();
    TcpBalancer balancer = null;
    try {
      for (int i = 1; i <= 4; i++) {
        RpcxServer.Builder builder =
            RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new Whoami.Impl("" + i));
        if (age != null) {
          builder.maxConnectionAge(age, grace);
        }
        servers.add(builder.build().start());
        calls.add(new LongAdder());
      }
      balancer = new TcpBalancer(List.of(address(servers.get(0)), address(servers.get(1))));
      for (int c = 0; c < clients; c++) {
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", balancer.port()).build();
        rpcxClients.add(client);
        Whoami whoami = client.create(Whoami.class);
        for (int t = 0; t < callers; t++) {
          Thread thread =
              new Thread(
                  () -> {
                    while (calling.get()) {
                      try {
                        calls.get(Integer.parseInt(whoami.name()) - 1).increment();
                      } catch (RuntimeException e) {
                        if (calling.get()) {
                          failures.increment();
                        }
                      }
                    }
                  },
                  "caller");
          thread.setDaemon(true);
          threads.add(thread);
          thread.start();
        }
      }
      List<String> seconds = new ArrayList<>();
      long[] last = snapshot(calls);
      for (int s = 0; s < before.toSeconds(); s++) {
        Thread.sleep(1_000);
        long[] now = snapshot(calls);
        seconds.add(line(-before.toSeconds() + s + 1, last, now, failures.sum()));
        last = now;
      }
      balancer.add(address(servers.get(2)));
      balancer.add(address(servers.get(3)));
      long scaled = System.nanoTime();
      double reachedAt = -1;
      double share = 0;
      // A sliding one-second window, moved every 100 ms.
      List<long[]> window = new ArrayList<>();
      window.add(snapshot(calls));
      long nextLine = scaled + TimeUnit.SECONDS.toNanos(1);
      long[] lineStart = window.get(0);
      long end = scaled + horizon.toNanos();
      while (System.nanoTime() - end < 0) {
        Thread.sleep(100);
        long[] now = snapshot(calls);
        window.add(now);
        if (window.size() > 11) {
          window.remove(0);
        }
        share = newShare(window.get(0), now);
        if (System.nanoTime() - nextLine >= 0) {
          seconds.add(line(Math.round((nextLine - scaled) / 1e9), lineStart, now, failures.sum()));
          lineStart = now;
          nextLine += TimeUnit.SECONDS.toNanos(1);
        }
        if (reachedAt < 0 && window.size() == 11 && share >= TARGET_SHARE) {
          reachedAt = (System.nanoTime() - scaled) / 1e9;
          end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2); // two more seconds to show it holds
        }
      }
      seconds.add("failed calls: " + failures.sum());
      return new Result(reachedAt, share, seconds);
    } finally {
      calling.set(false);
      for (Thread thread : threads) {
        thread.join(5_000);
      }
      for (RpcxClient client : rpcxClients) {
        client.close();
      }
      if (balancer != null) {
        balancer.close();
      }
      for (RpcxServer server : servers) {
        server.stop(Duration.ofSeconds(1));
      }
    }
  }

  private static InetSocketAddress address(RpcxServer server) {
    return new InetSocketAddress("127.0.0.1", server.port());
  }

  private static long[] snapshot(List<LongAdder> calls) {
    long[] counts = new long[calls.size()];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = calls.get(i).sum();
    }
    return counts;
  }

  /** The share of servers 3 and 4 in the calls answered between two snapshots. */
  private static double newShare(long[] from, long[] to) {
    long total = 0;
    for (int i = 0; i < from.length; i++) {
      total += to[i] - from[i];
    }
    return total == 0 ? 0 : (double) (to[2] - from[2] + to[3] - from[3]) / total;
  }

  private static String line(long second, long[] from, long[] to, long failures) {
    long total = 0;
    for (int i = 0; i < from.length; i++) {
      total += to[i] - from[i];
    }
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "t=%+3d s %7d calls/s", second, total));
    for (int i = 0; i < from.length; i++) {
      double share = total == 0 ? 0 : 100.0 * (to[i] - from[i]) / total;
      line.append(String.format(Locale.ROOT, "  s%d %5.1f%%", i + 1, share));
    }
    return line.append("  failed ").append(failures).toString();
  }
}
