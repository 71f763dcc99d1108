package io.rpcx.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one method, server and outcome for {@link RpcxClientMeters} or {@link
 * RpcxServerMeters}: the call timer, and the counters of stream messages sent and received with the
 * timer's tags, registered the first time a stream call of the method ends with that outcome (a
 * unary method never has them). Thread-safe; two threads may register a counter at once, and
 * Micrometer gives both the same.
 */
final class CallMeters {
  private final MeterRegistry registry;
  private final Iterable<Tag> tags;
  private final Timer timer;
  private final String sentName;
  private final String receivedName;
  private volatile Counter sent;
  private volatile Counter received;

  /** The timer {@code timerName} and, once a stream ends, the counters; all with {@code tags}. */
  CallMeters(
      MeterRegistry registry,
      Iterable<Tag> tags,
      String timerName,
      String timerDescription,
      String sentName,
      String receivedName) {
    this.registry = registry;
    this.tags = tags;
    this.timer =
        Timer.builder(timerName).description(timerDescription).tags(tags).register(registry);
    this.sentName = sentName;
    this.receivedName = receivedName;
  }

  /** The call timer. */
  Timer timer() {
    return timer;
  }

  /**
   * Adds what an ended stream call counted: {@code sentCount} if the method sends a stream from
   * this side, {@code receivedCount} if it receives one.
   */
  void countMessages(boolean sends, long sentCount, boolean receives, long receivedCount) {
    if (sends) {
      Counter counter = sent;
      if (counter == null) {
        counter = counter(registry, sentName, tags);
        sent = counter;
      }
      counter.increment(sentCount);
    }
    if (receives) {
      Counter counter = received;
      if (counter == null) {
        counter = counter(registry, receivedName, tags);
        received = counter;
      }
      counter.increment(receivedCount);
    }
  }

  /** The stream message counter {@code name} (of {@link RpcxKeys}) with {@code tags}. */
  static Counter counter(MeterRegistry registry, String name, Iterable<Tag> tags) {
    return Counter.builder(name)
        .description(
            name.endsWith(".sent")
                ? "Messages sent on stream calls, counted when each call ends"
                : "Messages received on stream calls, counted when each call ends")
        .tags(tags)
        .register(registry);
  }
}
