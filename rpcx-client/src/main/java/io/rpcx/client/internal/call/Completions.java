package io.rpcx.client.internal.call;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where asynchronous calls complete, off the network threads: each reply is decoded and its future
 * completed as a task of its own on the client's callback executor, so replies complete in
 * parallel; calls that timed out are completed in batches, by one task at a time that takes every
 * timeout queued so far. Timeouts come in bursts (a server that stalls lets thousands of calls
 * expire within milliseconds), and handing each to the executor on its own cost the event loop
 * one thread wake-up per call: 5,000 expiries left callers 30-200 ms late (DeadlineTest).
 * Thread-safe.
 */
public final class Completions {
  /** Timeouts completed per task before the task makes way for others. */
  private static final int MAX_PER_TASK = 1024;

  private final Executor executor;
  private final Queue<AsyncCall> timedOut = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final Runnable drain = this::drainTimeouts;

  public Completions(Executor executor) {
    this.executor = executor;
  }

  /** Runs {@code task} on the executor, or here if the executor refuses it (closing). */
  void run(Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      task.run();
    }
  }

  /** Completes {@code call}, which timed out, with the next batch. */
  void timedOut(AsyncCall call) {
    timedOut.add(call);
    if (draining.compareAndSet(false, true)) {
      run(drain);
    }
  }

  private void drainTimeouts() {
    try {
      AsyncCall call;
      for (int done = 0; done < MAX_PER_TASK && (call = timedOut.poll()) != null; done++) {
        call.completeTimedOut();
      }
    } finally {
      draining.set(false);
      if (!timedOut.isEmpty() && draining.compareAndSet(false, true)) {
        run(drain);
      }
    }
  }
}
