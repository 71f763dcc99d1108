package io.rpcx.testsuite;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs each task on a thread of its own, for tests whose tasks block (calls held by the server,
 * a server stopping): {@code CompletableFuture}'s default, the common pool, has as many threads as
 * the machine has cores less one, so on a bigger machine blocked tasks would queue behind each
 * other and the test would depend on the core count.
 */
public final class ThreadPerTask {
  private static final AtomicInteger count = new AtomicInteger();

  /** Starts a daemon thread per task. */
  public static final Executor EXECUTOR =
      task -> {
        Thread thread = new Thread(task, "test-task-" + count.incrementAndGet());
        thread.setDaemon(true);
        thread.start();
      };

  private ThreadPerTask() {}
}
