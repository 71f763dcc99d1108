package io.rpcx.core.internal.transport;

import io.netty.channel.Channel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hands writes from any thread to a channel's event loop in batches: one event-loop task drains
 * everything queued so far and flushes once, instead of one task and one flush (one system call)
 * per write. Thread-safe.
 */
public final class WriteQueue {
  /** Flush at least this often while draining a long queue, so bytes start moving early. */
  private static final int MAX_WRITES_PER_FLUSH = 128;

  private final Channel channel;
  private final Queue<QueuedWrite> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final Runnable drain = this::drain;
  private volatile boolean started;

  /**
   * @param started whether writes may go out at once; if not, they wait until {@link #start()}
   *     (a client connection queues calls while it connects)
   */
  public WriteQueue(Channel channel, boolean started) {
    this.channel = channel;
    this.started = started;
  }

  /** Queues {@code write} and makes sure a drain is scheduled. */
  public void enqueue(QueuedWrite write) {
    queue.add(write);
    if (started && scheduled.compareAndSet(false, true)) {
      schedule();
    }
  }

  /** Lets queued and future writes go out. Idempotent. */
  public void start() {
    started = true;
    if (!queue.isEmpty() && scheduled.compareAndSet(false, true)) {
      schedule();
    }
  }

  private void schedule() {
    try {
      channel.eventLoop().execute(drain);
    } catch (RejectedExecutionException e) {
      // The event loop has shut down: nothing queued will ever be written. A write queued while
      // this aborts the others saw the flag set and left it here: abort until none is left.
      do {
        QueuedWrite write;
        while ((write = queue.poll()) != null) {
          write.abort(e);
        }
        scheduled.set(false);
      } while (!queue.isEmpty() && scheduled.compareAndSet(false, true));
    }
  }

  private void drain() {
    try {
      int written = 0;
      QueuedWrite write;
      while ((write = queue.poll()) != null) {
        write.writeTo(channel);
        if (++written == MAX_WRITES_PER_FLUSH) {
          channel.flush();
          written = 0;
        }
      }
      channel.flush();
    } finally {
      scheduled.set(false);
      if (!queue.isEmpty() && scheduled.compareAndSet(false, true)) {
        schedule();
      }
    }
  }
}
