package io.rpcx.client.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.internal.transport.QueuedWrite;
import java.util.concurrent.TimeUnit;

/**
 * A call and its encoded request on one connection: waiting in the write queue, then among the
 * connection's {@link PendingCalls} until it ends. An asynchronous call's deadline is a task on
 * the event loop ({@link #run}), cancelled when the call ends otherwise.
 */
final class OutboundCall implements QueuedWrite, Runnable {
  final PendingCall call;
  final ByteBuf frame;
  private final ClientConnection connection;
  /** The scheduled timeout, or {@code null}; set before the call is queued, or on the loop. */
  private ScheduledFuture<?> deadline;

  OutboundCall(PendingCall call, ByteBuf frame, ClientConnection connection) {
    this.call = call;
    this.frame = frame;
    this.connection = connection;
  }

  /** Times the call out on {@code loop} when its deadline passes, unless already timed. */
  void startDeadline(EventExecutor loop) {
    if (deadline == null) {
      deadline = loop.schedule(this, Math.max(0, call.remainingNanos()), TimeUnit.NANOSECONDS);
    }
  }

  /** The call will not be written: releases its request and its timer. */
  void discard() {
    frame.release();
    cancelDeadline();
  }

  void cancelDeadline() {
    if (deadline != null) {
      deadline.cancel(false);
    }
  }

  /** The deadline passed: on the event loop. */
  @Override
  public void run() {
    connection.expired(this);
  }

  @Override
  public void writeTo(Channel channel) {
    connection.write(this);
  }

  @Override
  public void abort(Throwable cause) {
    discard();
    call.fail(connection.failures().notSentClientClosed(call));
  }
}
