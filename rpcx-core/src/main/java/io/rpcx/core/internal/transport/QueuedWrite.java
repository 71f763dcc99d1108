package io.rpcx.core.internal.transport;

import io.netty.channel.Channel;

/** Something waiting in a {@link WriteQueue} to be written to its channel. */
public interface QueuedWrite {

  /** Writes (without flushing) to {@code channel}. Runs on the channel's event loop. */
  void writeTo(Channel channel);

  /** The write will never happen (the event loop is gone): release what it holds. */
  void abort(Throwable cause);
}
