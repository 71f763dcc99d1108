package io.rpcx.client.internal.transport;

import io.netty.channel.Channel;
import io.rpcx.core.internal.transport.ControlFrames;
import java.util.concurrent.TimeUnit;

/**
 * Keepalive of one client connection: when nothing arrived for the interval (an idle event), a
 * PING goes out, and the connection is given up if nothing at all arrives within the timeout after
 * it. Event loop only.
 */
final class KeepAlive {
  private final long timeoutMillis;
  private long lastReadNanos = System.nanoTime();

  KeepAlive(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  long timeoutMillis() {
    return timeoutMillis;
  }

  /** Something arrived: the server is alive. */
  void onRead() {
    lastReadNanos = System.nanoTime();
  }

  /**
   * Nothing arrived for the interval: pings the server on {@code channel}, and runs {@code
   * onSilence} if nothing arrives within the timeout either.
   */
  void onReadIdle(Channel channel, Runnable onSilence) {
    long pingedAt = System.nanoTime();
    channel.writeAndFlush(ControlFrames.ping(channel.alloc(), false, pingedAt));
    channel.eventLoop().schedule(
        () -> {
          if (lastReadNanos - pingedAt < 0) {
            onSilence.run();
          }
        },
        timeoutMillis,
        TimeUnit.MILLISECONDS);
  }
}
