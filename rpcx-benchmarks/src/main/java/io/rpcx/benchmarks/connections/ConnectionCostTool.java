package io.rpcx.benchmarks.connections;

import io.rpcx.benchmarks.connections.RawConnection.Method;
import io.rpcx.benchmarks.report.CommandLine;
import io.rpcx.benchmarks.report.ResultsFolder;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.internal.transport.Transports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What a connection costs an RPCX server (issue 18, item 6), in two parts:
 *
 * <ul>
 *   <li><b>memory</b>: a server in a JVM of its own (fixed heap, Native Memory Tracking on) is
 *       measured after a full GC with no client connected, then with {@code --connections} lean
 *       client connections open and idle (each having exchanged prefaces and made one call), then
 *       with one call in flight on each, first one that holds no thread ({@code hold}, an
 *       asynchronous method) and then one that blocks a worker thread ({@code block}). Each state
 *       is reported per connection: live heap, direct memory, native memory outside the heap, and
 *       their total; and broken down by class (the live-object histogram's difference) and by NMT
 *       category. Every round starts a fresh server JVM.
 *   <li><b>throughput</b>: one more server JVM, 16-byte echoes from {@code --callers} connections
 *       with one caller each against one connection shared by as many callers, alternated round by
 *       round; and, for reference, {@code RpcxClient}'s one connection with as many callers.
 * </ul>
 *
 * <p>The client side is {@link RawClient}: real RPCX connections over a few shared event loops,
 * since an {@code RpcxClient} keeps one connection per server address. The server's side is
 * what is measured; its JVM is separate, so the client's memory never counts.
 *
 * <pre>
 * java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.connections.ConnectionCostTool \
 *     --connections 10000 --rounds 3 --out rpcx-benchmarks/results/connections
 * </pre>
 *
 * <p>{@code report.md} in {@code --out} (default: a new folder under rpcx-benchmarks/results, which
 * git ignores) starts with the command and the machine; it is the file to keep in docs/benchmarks.
 * Profiles stay in the results folder.
 */
public final class ConnectionCostTool {
  private static final String TEXT = "0123456789abcdef"; // 16 bytes
  /**
   * Connections opened, used on every path and closed before the first snapshot, so that the JIT
   * has compiled those paths and the pools exist (a server that has been serving has them).
   */
  private static final int WARM_UP_CONNECTIONS = 1_000;
  private static final int ECHO_TIMEOUT_MILLIS = 60_000;
  /** Held calls wait for the operator; this long a timeout, as a patient client would send. */
  private static final int HELD_TIMEOUT_MILLIS = 600_000;
  /** The server's worker threads: RpcxServer's default. */
  private static final int WORKER_THREADS = 200;
  /** Calls the server's default pool queues when every thread is busy: RpcxServer's default. */
  private static final int MAX_QUEUED_CALLS = 10_000;

  private final Options options;
  private final StringBuilder report = new StringBuilder();

  private ConnectionCostTool(Options options) {
    this.options = options;
  }

  public static void main(String[] args) throws Exception {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(Options.USAGE);
      System.exit(2);
      return;
    }
    if (options.help) {
      System.out.println(Options.USAGE);
      return;
    }
    new ConnectionCostTool(options).run();
    System.exit(0); // the RpcxClient's and the raw client's threads are daemons; this is quicker
  }

  private void run() throws Exception {
    line("# What a connection costs an RPCX server");
    line("");
    line("- command: `" + CommandLine.of(ConnectionCostTool.class, options.arguments) + "`");
    line("- cores: " + Runtime.getRuntime().availableProcessors()
        + "; JDK " + System.getProperty("java.vm.version") + " (" + System.getProperty("java.vm.name")
        + "); transport: " + Transports.choose(true).setting());
    line("- load average at start (1, 5, 15 min): " + loadAverage());
    line("- client: RawClient, " + options.clientIoThreads + " event loops shared by every"
        + " connection; server: RpcxServer defaults (worker pool of 200 threads, "
        + Runtime.getRuntime().availableProcessors() + " event loops), idle timeout 1 h");
    line("");
    if (options.memory) {
      memory();
    }
    if (options.throughput) {
      throughput();
    }
    Files.createDirectories(options.out);
    Files.writeString(options.out.resolve("report.md"), report.toString());
    System.out.println("report: " + options.out.resolve("report.md"));
  }

  // ---------------------------------------------------------------------------------- memory

  private void memory() throws Exception {
    int n = options.connections;
    List<String> jvm =
        List.of("-Xms" + options.serverHeap, "-Xmx" + options.serverHeap,
            "-XX:NativeMemoryTracking=summary", "-XX:-AlwaysPreTouch");
    line("## Memory per connection");
    line("");
    line("Server JVM: `" + String.join(" ", jvm) + "`; " + n + " connections; each round a fresh"
        + " server JVM. Bytes per connection: (state − no connections) ÷ " + n + ", each state"
        + " measured after a full GC, after " + WARM_UP_CONNECTIONS + " connections were opened,"
        + " used on every path and closed. *Native* is NMT's committed memory less the Java heap,"
        + " the JIT's categories, class metadata and NMT's own (" + String.join(", ",
            new java.util.TreeSet<>(MemorySnapshot.NOT_PER_CONNECTION)) + "; every category is in"
        + " the NMT table below), and less the chunks of RPCX's direct buffer pool (NMT counts"
        + " them under Other): the pool's memory is counted as *direct (pinned)*, the bytes of"
        + " buffers in use; *direct (pool reserved)* is how much the pool grew. *Total* = live"
        + " heap + direct (pinned) + native.");
    line("");
    List<MemoryRound> rounds = new ArrayList<>();
    for (int round = 1; round <= options.rounds; round++) {
      progress("memory round " + round + " of " + options.rounds);
      rounds.add(memoryRound());
    }
    MemorySnapshot b = rounds.get(0).base;
    line(String.format(Locale.ROOT, "The server with no connection (round 1): live heap %.1f MiB,"
        + " direct memory reserved by the pool %.1f MiB (%.1f MiB in use), NMT committed %.1f MiB"
        + " (Java heap %.1f MiB), %d threads.", b.liveHeap / 1048576.0,
        b.directReserved / 1048576.0, b.directPinned / 1048576.0, b.nativeCommitted / 1048576.0,
        b.nativeByCategory.getOrDefault(MemorySnapshot.JAVA_HEAP, 0L) / 1048576.0, b.threads));
    line("");
    line("| round | state | live heap | direct (pinned) | direct (pool reserved) | native"
        + " | **total** | server threads |");
    line("|---|---|---:|---:|---:|---:|---:|---:|");
    for (int i = 0; i < rounds.size(); i++) {
      MemoryRound r = rounds.get(i);
      row(i + 1, "idle", r.base, r.idle, n);
      row(i + 1, "one `hold` call in flight", r.base, r.held, n);
      row(i + 1, "one `block` call in flight", r.base, r.blocked, n);
    }
    line("");
    line("Idle total per connection over the rounds: " + range(rounds, r -> r.idle) + "; with a"
        + " held call: " + range(rounds, r -> r.held) + "; with a blocked call: "
        + range(rounds, r -> r.blocked) + ".");
    line("");
    MemoryRound first = rounds.get(0);
    breakdown("Idle connection, live heap by class (round 1, idle − no connections)",
        first.base, first.idle, n, 45);
    breakdown("A held call, live heap by class (round 1, held − idle)",
        first.idle, first.held, n, 20);
    breakdown("A blocked call, live heap by class (round 1, blocked − idle)",
        first.idle, first.blocked, n, 20);
    nativeBreakdown(first, n);
  }

  private MemoryRound memoryRound() throws Exception {
    int n = options.connections;
    List<String> jvm =
        List.of("-Xms" + options.serverHeap, "-Xmx" + options.serverHeap,
            "-XX:NativeMemoryTracking=summary", "-XX:-AlwaysPreTouch");
    try (ServerProcess server = ServerProcess.start(jvm, n + WARM_UP_CONNECTIONS, false);
        RawClient client = new RawClient(options.clientIoThreads)) {
      InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
      // Warm-up: every path once on a few connections, so classes, pools and worker threads exist.
      List<RawConnection> warm = client.openAll(address, WARM_UP_CONNECTIONS, 256);
      callAll(warm, Method.ECHO, ECHO_TIMEOUT_MILLIS).join();
      inFlight(server, warm, Method.HOLD, null);
      inFlight(server, warm, Method.BLOCK, null);
      closeAll(warm);
      server.awaitConnections(0);

      MemorySnapshot base = server.measure();
      progress("  opening " + n + " connections");
      List<RawConnection> connections = client.openAll(address, n, 256);
      callAll(connections, Method.ECHO, ECHO_TIMEOUT_MILLIS).join();
      server.awaitConnections(n);
      MemorySnapshot idle = server.measure();
      progress("  " + n + " held calls");
      MemorySnapshot[] held = new MemorySnapshot[1];
      inFlight(server, connections, Method.HOLD, s -> held[0] = s);
      progress("  " + n + " blocked calls");
      MemorySnapshot[] blocked = new MemorySnapshot[1];
      inFlight(server, connections, Method.BLOCK, s -> blocked[0] = s);
      closeAll(connections);
      server.awaitConnections(0);
      return new MemoryRound(base, idle, held[0], blocked[0]);
    }
  }

  /**
   * Sends one call of {@code method} on every connection and waits until the server has them all
   * in flight (every {@code hold} waiting; every {@code block} accepted, and as many blocking as
   * the worker pool has threads); measures ({@code measured} gets the snapshot, if not null);
   * lets them finish and checks every reply.
   */
  private static void inFlight(
      ServerProcess server,
      List<RawConnection> connections,
      Method method,
      java.util.function.Consumer<MemorySnapshot> measured) {
    int n = connections.size();
    server.closeGate();
    CompletableFuture<Void> replies = callAll(connections, method, HELD_TIMEOUT_MILLIS);
    server.awaitCalls(n);
    server.awaitWaiting(method == Method.HOLD ? n : Math.min(n, WORKER_THREADS));
    if (measured != null) {
      measured.accept(server.measure());
    }
    server.openGate();
    replies.join();
  }

  /** One call of {@code method} on every connection; completes when every reply is checked. */
  private static CompletableFuture<Void> callAll(
      List<RawConnection> connections, Method method, int timeoutMillis) {
    CompletableFuture<?>[] calls = new CompletableFuture<?>[connections.size()];
    for (int i = 0; i < calls.length; i++) {
      String text = TEXT;
      calls[i] =
          connections.get(i).call(method, text, timeoutMillis).thenAccept(reply -> {
            if (!text.equals(reply)) {
              throw new IllegalStateException(method + " answered '" + reply + "'");
            }
          });
    }
    return CompletableFuture.allOf(calls);
  }

  private static void closeAll(List<RawConnection> connections) {
    CompletableFuture<?>[] closing = new CompletableFuture<?>[connections.size()];
    for (int i = 0; i < closing.length; i++) {
      closing[i] = connections.get(i).close();
    }
    CompletableFuture.allOf(closing).join();
  }

  private void row(int round, String state, MemorySnapshot base, MemorySnapshot s, int n) {
    line("| " + round + " | " + state
        + " | " + perConnection(s.liveHeap - base.liveHeap, n)
        + " | " + perConnection(s.directPinned - base.directPinned, n)
        + " | " + perConnection(s.directReserved - base.directReserved, n)
        + " | " + perConnection(s.nativeOutsidePool() - base.nativeOutsidePool(), n)
        + " | **" + perConnection(s.total() - base.total(), n) + "**"
        + " | " + s.threads + " |");
  }

  private static String range(
      List<MemoryRound> rounds, java.util.function.Function<MemoryRound, MemorySnapshot> state) {
    List<Double> values = new ArrayList<>();
    for (MemoryRound r : rounds) {
      values.add((state.apply(r).total() - r.base.total()) / (double) r.idle.connections);
    }
    double min = Collections.min(values);
    double max = Collections.max(values);
    double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    return String.format(Locale.ROOT, "mean %s (%s to %s)", bytes(mean), bytes(min), bytes(max));
  }

  private void breakdown(String title, MemorySnapshot from, MemorySnapshot to, int n, int top) {
    record Diff(String name, long instances, long bytes) {}
    List<Diff> diffs = new ArrayList<>();
    java.util.Set<String> names = new java.util.TreeSet<>(from.histogram.keySet());
    names.addAll(to.histogram.keySet());
    long total = 0;
    for (String name : names) {
      long[] a = from.histogram.getOrDefault(name, new long[2]);
      long[] b = to.histogram.getOrDefault(name, new long[2]);
      diffs.add(new Diff(name, b[0] - a[0], b[1] - a[1]));
      total += b[1] - a[1];
    }
    diffs.sort((x, y) -> Long.compare(Math.abs(y.bytes), Math.abs(x.bytes)));
    line("### " + title);
    line("");
    line("| class | instances per connection | bytes per connection |");
    line("|---|---:|---:|");
    long shown = 0;
    for (Diff d : diffs.subList(0, Math.min(top, diffs.size()))) {
      line(String.format(Locale.ROOT, "| `%s` | %.2f | %.1f |",
          d.name, d.instances / (double) n, d.bytes / (double) n));
      shown += d.bytes;
    }
    line(String.format(Locale.ROOT, "| (every other class) | | %.1f |", (total - shown) / (double) n));
    line(String.format(Locale.ROOT, "| **all** | | **%.1f** |", total / (double) n));
    line("");
  }

  private void nativeBreakdown(MemoryRound r, int n) {
    line("### Native memory by NMT category (round 1, bytes per connection; * = not in *native*)");
    line("");
    line("| category | idle − none | held − idle | blocked − idle |");
    line("|---|---:|---:|---:|");
    java.util.Set<String> categories = new java.util.LinkedHashSet<>(r.base.nativeByCategory.keySet());
    categories.addAll(r.blocked.nativeByCategory.keySet());
    for (String category : categories) {
      long idle = delta(r.base, r.idle, category);
      long held = delta(r.idle, r.held, category);
      long blocked = delta(r.idle, r.blocked, category);
      if (idle == 0 && held == 0 && blocked == 0) {
        continue;
      }
      String mark = MemorySnapshot.NOT_PER_CONNECTION.contains(category) ? " *" : "";
      line(String.format(Locale.ROOT, "| %s%s | %.1f | %.1f | %.1f |",
          category, mark, idle / (double) n, held / (double) n, blocked / (double) n));
    }
    line("");
  }

  private static long delta(MemorySnapshot a, MemorySnapshot b, String category) {
    return b.nativeByCategory.getOrDefault(category, 0L) - a.nativeByCategory.getOrDefault(category, 0L);
  }

  /** The four snapshots of one round. */
  private record MemoryRound(
      MemorySnapshot base, MemorySnapshot idle, MemorySnapshot held, MemorySnapshot blocked) {}

  // ------------------------------------------------------------------------------ throughput

  private void throughput() throws Exception {
    int callers = options.callers;
    List<String> jvm =
        List.of("-Xms" + options.serverHeap, "-Xmx" + options.serverHeap, "-XX:+AlwaysPreTouch");
    Duration warmUp = Duration.ofSeconds(options.warmUpSeconds);
    Duration measured = Duration.ofSeconds(options.seconds);
    line("## Throughput: " + callers + " connections × 1 caller against 1 connection × " + callers
        + " callers");
    line("");
    line("Echo of a 16-byte string, blocking calls from "
        + options.callerThreads.name().toLowerCase(Locale.ROOT)
        + " threads, closed loop. Server JVM `"
        + String.join(" ", jvm) + "` on " + javaVersion(options.serverJava) + ", RPCX defaults"
        + (options.directExecutor ? " but `directExecutor()` (implementation on the event loop)" : "")
        + "; after " + options.seconds + " s of each cell unmeasured, each cell "
        + options.warmUpSeconds + " s warm-up + " + options.seconds
        + " s measured, the three in turn, round after round; load average before: "
        + loadAverage() + ".");
    line("");
    try (ServerProcess server =
            ServerProcess.start(options.serverJava, jvm, callers + 10, options.directExecutor);
        RawClient client = new RawClient(options.clientIoThreads)) {
      InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
      List<RawConnection> many = client.openAll(address, callers, 256);
      RawConnection one = client.openAll(address, 1, 1).get(0);
      try (RpcxClient reference =
          RpcxClient.builder()
              .target("127.0.0.1", server.port())
              .defaultTimeout(Duration.ofSeconds(60))
              .build()) {
        ConnectionCostService service = reference.create(ConnectionCostService.class);
        List<CallerLoad.Call> manyConnections = new ArrayList<>();
        List<CallerLoad.Call> oneConnection = new ArrayList<>();
        List<CallerLoad.Call> rpcxClient = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
          RawConnection own = many.get(i);
          manyConnections.add(() -> own.callAndCheck(Method.ECHO, TEXT, ECHO_TIMEOUT_MILLIS));
          oneConnection.add(() -> one.callAndCheck(Method.ECHO, TEXT, ECHO_TIMEOUT_MILLIS));
          rpcxClient.add(() -> {
            String reply = service.echo(TEXT);
            if (!TEXT.equals(reply)) {
              throw new IllegalStateException("echo answered '" + reply + "'");
            }
          });
        }
        List<Cell> cells =
            List.of(
                new Cell("many-connections", manyConnections),
                new Cell("one-connection", oneConnection),
                new Cell("rpcx-client", rpcxClient));
        line("| round | " + callers + " connections × 1 caller (calls/s) | 1 connection × "
            + callers + " callers (calls/s) | ratio | RpcxClient, 1 connection × " + callers
            + " callers (calls/s) |");
        line("|---|---:|---:|---:|---:|");
        // Every cell once, unmeasured, so the JIT has compiled all their paths before round 1.
        progress("throughput warm-up");
        for (Cell cell : cells) {
          CallerLoad.run(
              cell.calls, options.callerThreads, measured, Duration.ofSeconds(1),
              CallerLoad.Window.NONE);
        }
        double[] sums = new double[cells.size()];
        double[][] firstRound = new double[cells.size()][];
        for (int round = 1; round <= options.throughputRounds; round++) {
          progress("throughput round " + round + " of " + options.throughputRounds);
          double[] rates = new double[cells.size()];
          for (int c = 0; c < cells.size(); c++) {
            Cell cell = cells.get(c);
            CallerLoad.Window window = CallerLoad.Window.NONE;
            if (round == 1 && options.profile != null) {
              window = profiled(server.pid(), cell.name);
            }
            rates[c] = CallerLoad.run(cell.calls, options.callerThreads, warmUp, measured, window);
            sums[c] += rates[c];
          }
          if (round == 1) {
            firstRound[0] = rates;
          }
          line(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | %.2f | %,.0f |",
              round, rates[0], rates[1], rates[0] / rates[1], rates[2]));
        }
        int r = options.throughputRounds;
        line(String.format(Locale.ROOT, "| mean | %,.0f | %,.0f | **%.2f** | %,.0f |",
            sums[0] / r, sums[1] / r, sums[0] / sums[1], sums[2] / r));
        line("");
        line("Load average after: " + loadAverage() + ".");
        line("");
        if (options.profile != null) {
          profileReport(cells, firstRound[0]);
        }
      }
    }
  }

  /** A throughput cell: a name (for profiles) and its callers. */
  private record Cell(String name, List<CallerLoad.Call> calls) {}

  /** A window that profiles the server JVM and this one while it is open. */
  private CallerLoad.Window profiled(long serverPid, String cell) {
    Profiler profiler = new Profiler(options.profilerLibrary, options.profile);
    long self = ProcessHandle.current().pid();
    return new CallerLoad.Window() {
      @Override
      public void opened() {
        profiler.start(serverPid);
        profiler.start(self);
      }

      @Override
      public void closed() {
        profiler.stop(serverPid, cell + "-server");
        profiler.stop(self, cell + "-client");
      }
    };
  }

  /** CPU per call and where it went, from the profiles of round 1 (1 sample = 1 ms of CPU). */
  private void profileReport(List<Cell> cells, double[] rates) throws IOException {
    line("### Where the CPU goes (round 1, async-profiler `cpu`, 1 ms interval)");
    line("");
    line("Profiles (flame graphs `*.html`, collapsed stacks `*.collapsed`, which"
        + " connection-cost.sh gzips) in `" + options.profile + "`. CPU per"
        + " call = samples × 1 ms ÷ (calls/s × measured seconds); share of each side's samples by"
        + " what the stack was doing (`CpuBreakdown`).");
    line("");
    List<Map<String, Double>> shares = new ArrayList<>();
    java.util.Set<String> categories = new java.util.LinkedHashSet<>();
    StringBuilder header = new StringBuilder("| |");
    StringBuilder rule = new StringBuilder("|---|");
    StringBuilder perCall = new StringBuilder("| CPU per call (µs) |");
    for (int c = 0; c < cells.size(); c++) {
      double calls = rates[c] * options.seconds;
      for (String side : List.of("server", "client")) {
        Path collapsed = options.profile.resolve(cells.get(c).name + "-" + side + ".collapsed");
        header.append(" ").append(cells.get(c).name).append(", ").append(side).append(" |");
        rule.append("---:|");
        perCall.append(String.format(Locale.ROOT, " %.1f |",
            CpuBreakdown.samples(collapsed) * 1000.0 / calls));
        Map<String, Double> share = CpuBreakdown.of(collapsed);
        shares.add(share);
        categories.addAll(share.keySet());
      }
    }
    line(header.toString());
    line(rule.toString());
    line(perCall.toString());
    for (String category : categories) {
      StringBuilder row = new StringBuilder("| " + category + " |");
      for (Map<String, Double> share : shares) {
        row.append(String.format(Locale.ROOT, " %.1f%% |", share.getOrDefault(category, 0.0)));
      }
      line(row.toString());
    }
    line("");
  }

  // ---------------------------------------------------------------------------------- output

  /** The version {@code java -version} reports, or the path when it cannot be run. */
  private static String javaVersion(Path java) {
    try {
      Process p = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
      String first =
          new String(p.getInputStream().readAllBytes())
              .lines()
              .filter(line -> line.contains(" version "))
              .findFirst()
              .orElse("");
      p.waitFor();
      return first.isEmpty() ? java.toString() : first.replace("\"", "");
    } catch (IOException e) {
      return java.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return java.toString();
    }
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return parts[0] + ", " + parts[1] + ", " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String perConnection(long bytes, int n) {
    return bytes(bytes / (double) n);
  }

  private static String bytes(double b) {
    if (Math.abs(b) >= 1024) {
      return String.format(Locale.ROOT, "%,.0f B (%.1f KiB)", b, b / 1024);
    }
    return String.format(Locale.ROOT, "%,.0f B", b);
  }

  private void line(String text) {
    report.append(text).append('\n');
    System.out.println(text);
  }

  private static void progress(String text) {
    System.err.println("[" + java.time.LocalTime.now().withNano(0) + "] " + text);
  }

  /** The command line. */
  private static final class Options {
    static final String USAGE =
        """
        Usage: java -cp benchmarks.jar io.rpcx.benchmarks.connections.ConnectionCostTool [options]
          --parts memory,throughput  which parts to run (default both)
          --connections N            connections held open in the memory part (default 10000)
          --rounds N                 memory rounds, each in a fresh server JVM (default 3)
          --server-heap SIZE         the server JVM's -Xms and -Xmx (default 2g)
          --callers N                throughput: N connections x 1 caller against 1 x N (default 1000)
          --throughput-rounds N      rounds of the three throughput cells (default 3)
          --warmup S, --seconds S    warm-up and measured seconds of each cell (default 5, 10)
          --client-io-threads N      event loops of the lean client (default 2)
          --direct                   throughput: the server runs calls on its event loops
          --virtual-callers          throughput: callers on virtual threads (Java 21+)
          --server-java PATH         throughput: the server JVM's java (default this JVM's)
          --profile DIR              throughput: CPU profiles of round 1's cells into DIR
          --profiler-lib PATH        async-profiler's libasyncProfiler.so (default
                                     rpcx-benchmarks/target/async-profiler/linux-x64/...)
          --out DIR                  write the report to DIR/report.md (default: a new
                                     folder under rpcx-benchmarks/results, git-ignored)
        """;

    boolean memory = true;
    boolean throughput = true;
    int connections = 10_000;
    int rounds = 3;
    String serverHeap = "2g";
    int callers = 1_000;
    int throughputRounds = 3;
    int warmUpSeconds = 5;
    int seconds = 10;
    int clientIoThreads = 2;
    Path out;
    /** The command line as given, for the report. */
    List<String> arguments;
    boolean directExecutor;
    CallerLoad.Threads callerThreads = CallerLoad.Threads.PLATFORM;
    Path serverJava = ServerProcess.thisJava();
    Path profile;
    Path profilerLibrary =
        Path.of("rpcx-benchmarks/target/async-profiler/linux-x64/libasyncProfiler.so");
    boolean help;

    static Options parse(String[] args) {
      Options o = new Options();
      o.arguments = List.of(args);
      for (int i = 0; i < args.length; i++) {
        String name = args[i];
        if (name.equals("--help") || name.equals("-h")) {
          o.help = true;
          continue;
        }
        if (name.equals("--direct")) {
          o.directExecutor = true;
          continue;
        }
        if (name.equals("--virtual-callers")) {
          o.callerThreads = CallerLoad.Threads.VIRTUAL;
          continue;
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(name + " needs a value");
        }
        String value = args[++i];
        switch (name) {
          case "--parts" -> {
            List<String> parts = List.of(value.split(","));
            for (String part : parts) {
              if (!part.equals("memory") && !part.equals("throughput")) {
                throw new IllegalArgumentException(
                    "--parts: unknown part '" + part + "' (expected: memory, throughput)");
              }
            }
            o.memory = parts.contains("memory");
            o.throughput = parts.contains("throughput");
          }
          case "--connections" -> o.connections = positive(name, value);
          case "--rounds" -> o.rounds = positive(name, value);
          case "--server-heap" -> o.serverHeap = value;
          case "--callers" -> o.callers = positive(name, value);
          case "--throughput-rounds" -> o.throughputRounds = positive(name, value);
          case "--warmup" -> o.warmUpSeconds = positive(name, value);
          case "--seconds" -> o.seconds = positive(name, value);
          case "--client-io-threads" -> o.clientIoThreads = positive(name, value);
          case "--out" -> o.out = Path.of(value);
          case "--profile" -> o.profile = Path.of(value);
          case "--server-java" -> o.serverJava = Path.of(value);
          case "--profiler-lib" -> o.profilerLibrary = Path.of(value);
          default -> throw new IllegalArgumentException("unknown option " + name);
        }
      }
      int most = WORKER_THREADS + MAX_QUEUED_CALLS;
      if (o.memory && o.connections > most) {
        throw new IllegalArgumentException("--connections: " + o.connections + " (expected: <= "
            + most + " for the memory part, whose block call on every connection the server's"
            + " default pool must take: " + WORKER_THREADS + " threads and " + MAX_QUEUED_CALLS
            + " queued calls)");
      }
      if (o.out == null && !o.help) {
        o.out = ResultsFolder.newFolder("connections");
      }
      return o;
    }

    private static int positive(String name, String value) {
      int n;
      try {
        n = Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + ": '" + value + "' is not a number");
      }
      if (n < 1) {
        throw new IllegalArgumentException(name + ": " + n + " (expected: >= 1)");
      }
      return n;
    }
  }
}
