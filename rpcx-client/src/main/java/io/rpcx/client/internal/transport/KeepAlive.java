package io.rpcx.client.internal.transport;

import io.netty.channel.Channel;
import io.rpcx.core.internal.transport.ControlFrames;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Keepalive of one client connection: when nothing arrived for the interval (an idle event) while
 * calls are in flight (or always, with keepalive without calls), a PING goes out, and the
 * connection is given up if nothing at all arrives within the timeout after it. One ping at a
 * time: idle events while it is unanswered send no other. Event loop only.
 */
final class KeepAlive {
  private final long timeoutMillis;
  private final boolean withoutCalls;
  private long lastReadNanos = System.nanoTime();
  /** A ping was sent and nothing arrived since. */
  private boolean pinging;

  KeepAlive(long timeoutMillis, boolean withoutCalls) {
    this.timeoutMillis = timeoutMillis;
    this.withoutCalls = withoutCalls;
  }

  long timeoutMillis() {
    return timeoutMillis;
  }

  /** Something arrived: the server is alive. */
  void onRead() {
    lastReadNanos = System.nanoTime();
    pinging = false;
  }

  /**
   * Nothing arrived for the interval, while {@code callsInFlight} calls were in flight: pings the
   * server on {@code channel} (an RPCX PING; unless no call is in flight and idle connections are
   * left alone, or a ping is unanswered already), and runs {@code onSilence} if nothing arrives
   * within the timeout after it.
   */
  void onReadIdle(Channel channel, int callsInFlight, Runnable onSilence) {
    onReadIdle(
        channel,
        callsInFlight,
        data -> channel.writeAndFlush(ControlFrames.ping(channel.alloc(), false, data)),
        onSilence);
  }

  /**
   * As {@link #onReadIdle(Channel, int, Runnable)}, with {@code ping} sending the ping carrying the
   * data it is given (an HTTP/2 PING on a gRPC connection).
   */
  void onReadIdle(Channel channel, int callsInFlight, LongConsumer ping, Runnable onSilence) {
    if (pinging || (callsInFlight == 0 && !withoutCalls)) {
      return;
    }
    pinging = true;
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
