package io.rpcx.testing.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty's buffer leak detection for tests: turns it to {@link ResourceLeakDetector.Level#PARANOID}
 * (every buffer tracked) and collects the leaks it reports, which it does when the garbage
 * collector has found a buffer that was never released. The detector of Netty's buffers is a
 * private static field; if it cannot be reached (a module path that does not open {@code
 * io.netty.buffer}), leaks are still logged by Netty at ERROR, but not collected. Thread-safe.
 */
public final class BufferLeaks {
  private static final List<String> leaks = new ArrayList<>();
  private static final boolean listening = listen();

  private BufferLeaks() {}

  /** Turns leak detection to paranoid; returns the level it had, for {@link #restore}. */
  public static String paranoid() {
    ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    return before.name();
  }

  /** Sets the level {@link #paranoid()} returned. */
  public static void restore(String level) {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.valueOf(level));
  }

  /** Whether leaks are collected, not only logged. */
  public static boolean collecting() {
    return listening;
  }

  /**
   * Why leaks would go unnoticed in this JVM, or {@code null} when they are collected: the
   * detector cannot be reached, or Netty reports leaks only while ERROR logging is on for its
   * detector, and a test logging configuration turned it off.
   */
  public static String notCollectedBecause() {
    if (!listening) {
      return "Netty's buffer leak detector cannot be reached (is io.netty.buffer opened to"
          + " io.rpcx.testing?)";
    }
    if (!io.netty.util.internal.logging.InternalLoggerFactory.getInstance(ResourceLeakDetector.class)
        .isErrorEnabled()) {
      return "ERROR logging is off for io.netty.util.ResourceLeakDetector, and Netty reports leaks"
          + " only while it is on";
    }
    return null;
  }

  /**
   * Runs the garbage collector and makes Netty look for unreleased buffers it found; returns the
   * leaks reported since the last call, each with Netty's record of where the buffer was used.
   */
  public static List<String> sweep() {
    ByteBufAllocator probe = new UnpooledByteBufAllocator(true);
    for (int round = 0; round < 3; round++) {
      collectAndAwaitReferenceProcessing();
      // Netty looks at the buffers the collector found when it tracks a new one.
      ByteBuf buffer = probe.directBuffer(1);
      buffer.release();
    }
    synchronized (leaks) {
      List<String> found = List.copyOf(leaks);
      leaks.clear();
      return found;
    }
  }

  /**
   * Runs the collector and waits until it has handed the references it cleared to their queues:
   * the JVM enqueues them on a thread of its own, after {@code System.gc()} returns, so a buffer's
   * leak may not be visible yet when it does. A sentinel cleared in the same collection marks when
   * they are (at most a second).
   */
  private static void collectAndAwaitReferenceProcessing() {
    java.lang.ref.ReferenceQueue<Object> queue = new java.lang.ref.ReferenceQueue<>();
    java.lang.ref.WeakReference<Object> sentinel = new java.lang.ref.WeakReference<>(new Object(), queue);
    System.gc();
    try {
      queue.remove(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    java.lang.ref.Reference.reachabilityFence(sentinel);
  }

  private static boolean listen() {
    try {
      Field field = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
      field.setAccessible(true);
      ResourceLeakDetector<?> detector = (ResourceLeakDetector<?>) field.get(null);
      detector.setLeakListener(
          (resourceType, records) -> {
            synchronized (leaks) {
              leaks.add(resourceType + " was never released" + (records.isEmpty() ? "" : ":" + records));
            }
          });
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }
}
