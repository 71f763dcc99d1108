package io.rpcx.benchmarks.connections;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What the connection-cost tool reads out of {@code jcmd}'s text, and sends between JVMs. */
class MemorySnapshotTest {
  private static final String HISTOGRAM =
      """
       num     #instances         #bytes  class name (module)
      -------------------------------------------------------
         1:         41962        3520568  [B (java.base@17.0.15)
         2:         10000        1360000  io.netty.channel.epoll.EpollSocketChannel
         3:          4000         128000  java.lang.String (java.base@17.0.15)
      Total         55962        5008568
      """;

  private static final String NMT =
      """
      Native Memory Tracking:

      (Omitting categories weighting less than 1KB)

      Total: reserved=3427328KB, committed=2192384KB
      -                 Java Heap (reserved=2097152KB, committed=2097152KB)
                                  (mmap: reserved=2097152KB, committed=2097152KB)

      -                     Class (reserved=1048576KB, committed=8192KB)
                                  (classes #6000)

      -                    Thread (reserved=215040KB, committed=20480KB)
                                  (thread #209)

      -                     Other (reserved=65536KB, committed=65536KB)
                                  (malloc=65536KB #4)

      -                  Compiler (reserved=1024KB, committed=1024KB)
      """;

  @Test
  void theClassHistogramGivesLiveBytesByClass() {
    Map<String, long[]> byClass = new TreeMap<>();
    assertEquals(5_008_568, MemorySnapshot.parseHistogram(HISTOGRAM, byClass));
    assertArrayEquals(
        new long[] {10_000, 1_360_000}, byClass.get("io.netty.channel.epoll.EpollSocketChannel"));
    assertArrayEquals(new long[] {41_962, 3_520_568}, byClass.get("[B"));
    assertEquals(3, byClass.size());
  }

  @Test
  void nativeMemoryLeavesOutTheHeapTheJitClassesAndThePool() {
    Map<String, Long> categories = new LinkedHashMap<>();
    long committed = MemorySnapshot.parseNmt(NMT, categories);
    assertEquals(2_192_384L * 1024, committed);
    assertEquals(20_480L * 1024, categories.get("Thread"));
    MemorySnapshot s =
        new MemorySnapshot(0, 1_000, 65_536L * 1024, 4_096, committed, categories, Map.of(), 209, 0, 0);
    // Thread and Other count; the heap, Class and Compiler do not.
    assertEquals((20_480L + 65_536) * 1024, s.nativeMemory());
    // The pool's chunks (in Other) count as what its buffers use.
    assertEquals(20_480L * 1024, s.nativeOutsidePool());
    assertEquals(1_000 + 4_096 + 20_480L * 1024, s.total());
  }

  @Test
  void aSnapshotSurvivesItsTripBetweenJvms() {
    Map<String, Long> categories = new LinkedHashMap<>();
    long committed = MemorySnapshot.parseNmt(NMT, categories);
    Map<String, long[]> byClass = new TreeMap<>();
    long live = MemorySnapshot.parseHistogram(HISTOGRAM, byClass);
    MemorySnapshot s =
        new MemorySnapshot(7, live, 3, 2, committed, categories, byClass, 209, 10_000, 5);
    MemorySnapshot back = MemorySnapshot.parse(s.lines());
    assertEquals(s.lines(), back.lines());
    assertEquals(s.total(), back.total());
    assertEquals(10_000, back.connections);
  }

  @Test
  void withoutNativeMemoryTrackingTheProblemIsNamed() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> MemorySnapshot.parseNmt("Native memory tracking is not enabled\n", new TreeMap<>()));
    assertTrue(
        e.getMessage()
            .startsWith(
                "no Native Memory Tracking summary (run with -XX:NativeMemoryTracking=summary):"),
        e.getMessage());
  }
}
