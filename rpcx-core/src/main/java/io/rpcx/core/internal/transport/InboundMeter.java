package io.rpcx.core.internal.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection's share of an {@link InboundBudget}: the bytes of its incomplete frame (reported
 * by its {@link FrameDecoder}) and of its received frames not yet released (counted by {@link
 * NettyPayload}). Placed first in the pipeline, it also holds reading back while the budget is
 * used up: a read asked for then is dropped, and reading starts again when the budget resumes it.
 */
public final class InboundMeter extends ChannelOutboundHandlerAdapter {

  /** Closes a connection that must give its memory back, telling the peer {@code reason}. */
  @FunctionalInterface
  public interface Evictor {
    void evict(String reason);
  }

  private final InboundBudget budget;
  private final Evictor evictor;
  private volatile ChannelHandlerContext context;
  // Written on the event loop, read by the budget's relief task.
  private volatile long partialBytes;
  private volatile long partialSinceNanos;
  private volatile boolean paused;
  private volatile boolean evicted;
  /** Bytes of received frames not yet released; written on the loop and on release. */
  private final AtomicLong frames = new AtomicLong();

  InboundMeter(InboundBudget budget, Evictor evictor) {
    this.budget = budget;
    this.evictor = evictor;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    context = ctx;
  }

  @Override
  public void read(ChannelHandlerContext ctx) {
    if (!paused) {
      ctx.read();
    }
  }

  /**
   * On the event loop, after a read was decoded: the incomplete frame now holds {@code bytes} (on
   * an HTTP/2 connection, the incomplete messages of all its streams). Pauses reading if the
   * budget is used up.
   */
  public void partial(long bytes) {
    long before = partialBytes;
    if (bytes == before) {
      return;
    }
    if (before == 0) {
      partialSinceNanos = System.nanoTime();
    }
    partialBytes = bytes;
    budget.add(bytes - before);
    if (bytes > before && !paused && budget.mustPause(bytes + frames.get())) {
      budget.pause(this);
    }
  }

  /** A received frame of {@code bytes} is kept until released; on the event loop. */
  void held(int bytes) {
    long holding = frames.addAndGet(bytes) + partialBytes;
    budget.add(bytes);
    if (!paused && budget.mustPause(holding)) {
      budget.pause(this);
    }
  }

  /** A frame counted by {@link #held} was released; on any thread. */
  void released(int bytes) {
    frames.addAndGet(-bytes);
    budget.add(-bytes);
  }

  /**
   * The connection closed: what it held is given back, and the budget forgets it. On the event
   * loop; once.
   */
  public void closed() {
    partial(0);
    budget.closed(this);
  }

  long partialBytes() {
    return partialBytes;
  }

  long partialSinceNanos() {
    return partialSinceNanos;
  }

  boolean isEvicted() {
    return evicted;
  }

  void pauseReading() {
    paused = true;
    ChannelHandlerContext ctx = context;
    if (ctx != null) {
      ctx.channel().config().setAutoRead(false);
    }
  }

  void resume() {
    ChannelHandlerContext ctx = context;
    if (ctx == null) {
      paused = false;
      return;
    }
    try {
      ctx.executor().execute(
          () -> {
            paused = false;
            ctx.channel().config().setAutoRead(true);
          });
    } catch (RejectedExecutionException e) {
      paused = false; // shutting down: nothing will be read anyway
    }
  }

  void evict(String reason) {
    evicted = true;
    evictor.evict(reason);
  }

  /** Runs {@code task} on this connection's event loop later; false if it cannot. */
  boolean schedule(Runnable task, long delayMillis) {
    ChannelHandlerContext ctx = context;
    if (ctx == null) {
      return false;
    }
    try {
      ctx.executor().schedule(task, delayMillis, TimeUnit.MILLISECONDS);
      return true;
    } catch (RejectedExecutionException e) { // shutting down
      return false;
    }
  }
}
