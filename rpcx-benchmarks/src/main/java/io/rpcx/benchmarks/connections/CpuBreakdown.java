package io.rpcx.benchmarks.connections;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A CPU profile's samples by what the stack was doing, each stack counted once in the first
 * category it matches (the categories of {@code rpcx-benchmarks/profile.sh}, with writes, reads and
 * wake-ups told apart). Reads async-profiler's collapsed stacks ({@code frame;frame;... count}).
 */
final class CpuBreakdown {
  private static final Map<String, Pattern> CATEGORIES = new LinkedHashMap<>();

  static {
    CATEGORIES.put("GC", Pattern.compile("G1|ParScan|Evac|GCTask|ConcurrentGC|gc_"));
    CATEGORIES.put("JIT compiler", Pattern.compile("C2Compiler|C1Compiler|CompileBroker|Compilation::"));
    // On loopback a send also delivers the segment to the receiving socket and wakes its reader.
    CATEGORIES.put("kernel: TCP send (and loopback delivery)",
        Pattern.compile("__sys_sendto|__sys_sendmsg|do_writev|sock_write_iter|tcp_sendmsg"));
    CATEGORIES.put("kernel: TCP receive",
        Pattern.compile("__sys_recvfrom|__sys_recvmsg|sock_read_iter|tcp_recvmsg"));
    CATEGORIES.put("kernel: epoll_wait",
        Pattern.compile("epoll_wait|do_epoll_wait|ep_poll"));
    CATEGORIES.put("kernel: futex, eventfd (thread wake-ups)",
        Pattern.compile("futex|eventfd|[Pp]ark|Unsafe_Unpark|try_to_wake_up"));
    CATEGORIES.put("kernel: other", Pattern.compile("\\[k\\]|_\\[k\\]|entry_SYSCALL|do_syscall"));
    CATEGORIES.put("codec, envelope", Pattern.compile("io/rpcx/core/internal/(codec|protocol)|io\\.rpcx\\.core\\.internal\\.(codec|protocol)"));
    CATEGORIES.put("Netty (other)", Pattern.compile("io/netty|io\\.netty"));
    CATEGORIES.put("RPCX (other)", Pattern.compile("io/rpcx|io\\.rpcx"));
  }

  private CpuBreakdown() {}

  /** Share of samples by category, largest first; "other" for stacks matching none. */
  static Map<String, Double> of(Path collapsed) throws IOException {
    Map<String, Long> counts = new LinkedHashMap<>();
    long total = 0;
    List<String> lines = Files.readAllLines(collapsed);
    for (String line : lines) {
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      long count = Long.parseLong(line.substring(space + 1).trim());
      String stack = line.substring(0, space);
      String category = "other";
      for (Map.Entry<String, Pattern> c : CATEGORIES.entrySet()) {
        if (c.getValue().matcher(stack).find()) {
          category = c.getKey();
          break;
        }
      }
      counts.merge(category, count, Long::sum);
      total += count;
    }
    Map<String, Double> shares = new LinkedHashMap<>();
    long all = total;
    counts.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(e -> shares.put(e.getKey(), all == 0 ? 0 : 100.0 * e.getValue() / all));
    return shares;
  }

  /** Total samples of a collapsed profile. */
  static long samples(Path collapsed) throws IOException {
    long total = 0;
    for (String line : Files.readAllLines(collapsed)) {
      int space = line.lastIndexOf(' ');
      if (space > 0) {
        total += Long.parseLong(line.substring(space + 1).trim());
      }
    }
    return total;
  }
}
