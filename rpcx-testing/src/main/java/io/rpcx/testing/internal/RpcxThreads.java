package io.rpcx.testing.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The threads RPCX starts, all named {@code rpcx-}: network threads ({@code rpcx-server-io},
 * {@code rpcx-client-io}, {@code rpcx-server-accept}), server workers and client callback
 * threads. A server or client left open keeps some alive, so threads that outlive a test point at
 * what it did not close.
 *
 * <p>Virtual threads ({@code rpcx-server-virtual-n}: the default from Java 24, or {@code
 * virtualThreads()}) are not listed:
 * {@code Thread.getAllStackTraces()} holds platform threads only. A server's virtual threads end
 * with its stop, which waits for them; a server left open still shows in its network threads.
 */
public final class RpcxThreads {
  private RpcxThreads() {}

  /** The live RPCX threads. */
  public static Set<Thread> live() {
    Set<Thread> threads = new java.util.HashSet<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.isAlive() && thread.getName().startsWith("rpcx-")) {
        threads.add(thread);
      }
    }
    return threads;
  }

  /**
   * The RPCX threads alive now that were not in {@code before}, once each had until {@code
   * deadlineNanos} to end (closing stops threads a moment after it returns); sorted by name.
   */
  public static List<String> startedSince(Set<Thread> before, long deadlineNanos) {
    List<String> left = new ArrayList<>();
    for (Thread thread : live()) {
      if (before.contains(thread)) {
        continue;
      }
      long remaining = deadlineNanos - System.nanoTime();
      if (remaining > 0) {
        try {
          thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      if (thread.isAlive()) {
        left.add(thread.getName());
      }
    }
    left.sort(Comparator.naturalOrder());
    return left;
  }
}
