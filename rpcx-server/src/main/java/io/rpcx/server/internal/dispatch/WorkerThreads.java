package io.rpcx.server.internal.dispatch;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes a {@link WorkerPool}'s threads what every design's are: daemon threads named {@code
 * prefix + n}, with the context class loader of the thread that built the pool (fork-join threads
 * would otherwise get the system class loader; implementation code gets the one it would from a
 * plain thread pool).
 */
final class WorkerThreads {
  private final String prefix;
  private final ClassLoader contextLoader = Thread.currentThread().getContextClassLoader();
  private final AtomicInteger count = new AtomicInteger();

  WorkerThreads(String prefix) {
    this.prefix = prefix;
  }

  /** Names {@code thread} and sets it up; returns it. */
  <T extends Thread> T configure(T thread) {
    thread.setName(prefix + count.incrementAndGet());
    thread.setDaemon(true);
    thread.setContextClassLoader(contextLoader);
    return thread;
  }
}
