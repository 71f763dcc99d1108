package io.rpcx.benchmarks.connections;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocatorMetric;
import io.rpcx.core.internal.transport.Transports;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What a JVM holds, taken after a full GC: live heap (the class histogram, which is also the
 * breakdown by class), the direct memory of RPCX's pooled allocator (the one its platform threads
 * use), and native memory as Native Memory Tracking reports it (the JVM must run with {@code
 * -XX:NativeMemoryTracking=summary}). Taken in the measured JVM by {@link #take}, sent to the
 * driver as text lines ({@link #lines}, {@link #parse}). Immutable.
 */
final class MemorySnapshot {
  /** NMT's category of the Java heap, which the live-heap figure measures instead. */
  static final String JAVA_HEAP = "Java Heap";

  /**
   * NMT categories left out of {@link #nativeMemory()}: the heap (measured as live objects
   * instead), the JIT's code and working memory, class metadata, and NMT's own bookkeeping. None
   * grows with connections, but the JIT's arenas come and go by megabytes while it compiles, which
   * would swamp a per-connection figure; the tool reports every category besides.
   */
  static final java.util.Set<String> NOT_PER_CONNECTION =
      java.util.Set.of(
          JAVA_HEAP, "Code", "Compiler", "Arena Chunk", "Class", "Metaspace", "Symbol",
          "Shared class space", "Native Memory Tracking");

  private static final Pattern HISTOGRAM_LINE =
      Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+).*$");
  private static final Pattern NMT_TOTAL =
      Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB.*$");
  private static final Pattern NMT_CATEGORY =
      Pattern.compile("^-\\s+(.+?) \\(reserved=(\\d+)KB, committed=(\\d+)KB\\).*$");

  /** Bytes of the heap in use right after a full GC ({@code MemoryMXBean}). */
  final long heapUsed;
  /** Bytes of live objects (the class histogram's total, after its own full GC). */
  final long liveHeap;
  /** Direct memory RPCX's pooled allocator has reserved in its arenas. */
  final long directReserved;
  /** Of that, the bytes held by buffers in use (Netty's "pinned" memory). */
  final long directPinned;
  /** NMT's total committed bytes, the Java heap included. */
  final long nativeCommitted;
  /** NMT's committed bytes by category. */
  final Map<String, Long> nativeByCategory;
  /** Live instances and bytes by class name. */
  final Map<String, long[]> histogram;
  final int threads;
  final int connections;
  final int callsInFlight;

  MemorySnapshot(
      long heapUsed,
      long liveHeap,
      long directReserved,
      long directPinned,
      long nativeCommitted,
      Map<String, Long> nativeByCategory,
      Map<String, long[]> histogram,
      int threads,
      int connections,
      int callsInFlight) {
    this.heapUsed = heapUsed;
    this.liveHeap = liveHeap;
    this.directReserved = directReserved;
    this.directPinned = directPinned;
    this.nativeCommitted = nativeCommitted;
    this.nativeByCategory = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nativeByCategory));
    this.histogram = java.util.Collections.unmodifiableMap(new TreeMap<>(histogram));
    this.threads = threads;
    this.connections = connections;
    this.callsInFlight = callsInFlight;
  }

  /**
   * Committed native memory in the categories connections can grow: NMT's total less {@link
   * #NOT_PER_CONNECTION}. Direct memory is in it (category "Other").
   */
  long nativeMemory() {
    long excluded = 0;
    for (String category : NOT_PER_CONNECTION) {
      excluded += nativeByCategory.getOrDefault(category, 0L);
    }
    return nativeCommitted - excluded;
  }

  /**
   * {@link #nativeMemory()} less the direct memory RPCX's allocator has reserved: its chunks are
   * the pool's, used or free, and are counted by {@link #directPinned} as far as buffers use them.
   */
  long nativeOutsidePool() {
    return nativeMemory() - directReserved;
  }

  /**
   * What this JVM holds for its work: live heap, direct memory in buffers in use, and native
   * memory outside the buffer pool ({@link #nativeOutsidePool()}).
   */
  long total() {
    return liveHeap + directPinned + nativeOutsidePool();
  }

  /** Takes a snapshot of this JVM, after a full GC. */
  static MemorySnapshot take(int connections, int callsInFlight) {
    System.gc();
    long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    Map<String, long[]> histogram = new TreeMap<>();
    long liveHeap = parseHistogram(diagnosticCommand("gcClassHistogram"), histogram);
    Map<String, Long> nmt = new LinkedHashMap<>();
    long nativeCommitted = parseNmt(diagnosticCommand("vmNativeMemory", "summary"), nmt);
    PooledByteBufAllocator allocator = Transports.platformAllocator();
    PooledByteBufAllocatorMetric metric = allocator.metric();
    return new MemorySnapshot(
        heapUsed,
        liveHeap,
        metric.usedDirectMemory(),
        allocator.pinnedDirectMemory(),
        nativeCommitted,
        nmt,
        histogram,
        ManagementFactory.getThreadMXBean().getThreadCount(),
        connections,
        callsInFlight);
  }

  /** Runs a {@code jcmd} command in this JVM through the DiagnosticCommand MBean. */
  private static String diagnosticCommand(String operation, String... arguments) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
      return (String)
          server.invoke(
              name,
              operation,
              new Object[] {arguments},
              new String[] {String[].class.getName()});
    } catch (JMException e) {
      throw new IllegalStateException("diagnostic command " + operation + " failed", e);
    }
  }

  /** Fills {@code into} from {@code GC.class_histogram} text; returns the total bytes. */
  static long parseHistogram(String text, Map<String, long[]> into) {
    long total = 0;
    for (String line : text.split("\n")) {
      Matcher m = HISTOGRAM_LINE.matcher(line);
      if (m.matches()) {
        long instances = Long.parseLong(m.group(1));
        long bytes = Long.parseLong(m.group(2));
        into.merge(m.group(3), new long[] {instances, bytes},
            (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
        total += bytes;
      }
    }
    if (into.isEmpty()) {
      throw new IllegalStateException("no class histogram in: " + head(text));
    }
    return total;
  }

  /**
   * Fills {@code into} with committed bytes by category from {@code VM.native_memory summary}
   * text; returns the total committed bytes.
   */
  static long parseNmt(String text, Map<String, Long> into) {
    long total = -1;
    for (String line : text.split("\n")) {
      Matcher t = NMT_TOTAL.matcher(line.trim());
      if (t.matches()) {
        total = Long.parseLong(t.group(2)) * 1024;
        continue;
      }
      Matcher c = NMT_CATEGORY.matcher(line.trim());
      if (c.matches()) {
        into.put(c.group(1).trim(), Long.parseLong(c.group(3)) * 1024);
      }
    }
    if (total < 0) {
      throw new IllegalStateException(
          "no Native Memory Tracking summary (run with -XX:NativeMemoryTracking=summary): "
              + head(text));
    }
    return total;
  }

  private static String head(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }

  /** This snapshot as text lines, read back by {@link #parse}. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add("heapUsed " + heapUsed);
    lines.add("liveHeap " + liveHeap);
    lines.add("directReserved " + directReserved);
    lines.add("directPinned " + directPinned);
    lines.add("nativeCommitted " + nativeCommitted);
    lines.add("threads " + threads);
    lines.add("connections " + connections);
    lines.add("callsInFlight " + callsInFlight);
    nativeByCategory.forEach((k, v) -> lines.add("nmt " + v + " " + k));
    histogram.forEach((k, v) -> lines.add("class " + v[0] + " " + v[1] + " " + k));
    return lines;
  }

  /** The snapshot {@link #lines} wrote. */
  static MemorySnapshot parse(List<String> lines) {
    Map<String, Long> values = new LinkedHashMap<>();
    Map<String, Long> nmt = new LinkedHashMap<>();
    Map<String, long[]> histogram = new TreeMap<>();
    for (String line : lines) {
      String[] parts = line.split(" ", 4);
      switch (parts[0]) {
        case "nmt" -> nmt.put(line.substring(line.indexOf(' ', 4) + 1), Long.parseLong(parts[1]));
        case "class" ->
            histogram.put(
                parts[3], new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])});
        default -> values.put(parts[0], Long.parseLong(parts[1]));
      }
    }
    return new MemorySnapshot(
        values.get("heapUsed"),
        values.get("liveHeap"),
        values.get("directReserved"),
        values.get("directPinned"),
        values.get("nativeCommitted"),
        nmt,
        histogram,
        values.get("threads").intValue(),
        values.get("connections").intValue(),
        values.get("callsInFlight").intValue());
  }
}
