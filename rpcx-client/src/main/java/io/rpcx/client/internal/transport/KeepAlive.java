package io.rpcx.client.internal.transport;

import io.netty.channel.Channel;
import io.rpcx.core.internal.transport.ControlFrames;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

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
   * Nothing arrived for the interval: pings the server on {@code channel} (an RPCX PING), and runs
   * {@code onSilence} if nothing arrives within the timeout either.
   */
  void onReadIdle(Channel channel, Runnable onSilence) {
    onReadIdle(
        channel,
        data -> channel.writeAndFlush(ControlFrames.ping(channel.alloc(), false, data)),
        onSilence);
  }

  /**
   * Nothing arrived for the interval: has {@code ping} send a ping carrying the data it is given
   * (an HTTP/2 PING on a gRPC connection), and runs {@code onSilence} if nothing arrives within the
   * timeout either.
   */
  void onReadIdle(Channel channel, LongConsumer ping, Runnable onSilence) {
    long pingedAt = System.nanoTime();
    ping.accept(pingedAt);
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
