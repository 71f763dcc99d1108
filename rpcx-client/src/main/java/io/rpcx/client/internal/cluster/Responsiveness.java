package io.rpcx.client.internal.cluster;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether a server still answers its calls, as one client sees it: the server is <em>silent</em>
 * when calls are waiting for it and none has been answered for far longer than its usual latency
 * (four times it, at least {@value #FLOOR_MILLIS} ms). A server that stopped (a paused process, a
 * dead event loop behind an open connection) turns silent that long after its last answer; one
 * that is merely slow under load keeps answering, its usual latency grows with it, and it never
 * does. Balancers prefer a server that is not silent to one that is, and nothing more: it is not
 * ejected, takes calls again as soon as it answers one, and still takes them when every server is
 * silent.
 *
 * <p>Counts unary calls only: a stream may rightly stay quiet for as long as it is open. The usual
 * latency is an exponentially weighted moving average of answered calls' latencies, weight 1/8.
 * Thread-safe; per call, an atomic counter and a few volatile fields.
 */
final class Responsiveness {
  /** The least silence that counts, however fast the server usually answers. */
  static final long FLOOR_MILLIS = 100;
  /** How many times its usual latency a server may take to answer before it counts as silent. */
  static final int FACTOR = 4;

  private static final long FLOOR_NANOS = TimeUnit.MILLISECONDS.toNanos(FLOOR_MILLIS);

  /** Unary calls sent and not ended. */
  private final AtomicInteger waiting = new AtomicInteger();
  /** When the first of the calls waiting now was sent after none were. */
  private volatile long busySinceNanos = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
  /** When a call was last answered (long before any call, until one is). */
  private volatile long answeredAtNanos = busySinceNanos;
  /** The moving average of answered calls' latencies; 0 before the first answer. */
  private volatile long usualLatencyNanos;

  /** A unary call was sent at {@code nowNanos}. */
  void sent(long nowNanos) {
    if (waiting.getAndIncrement() == 0) {
      busySinceNanos = nowNanos;
    }
  }

  /** A unary call sent at {@code sentNanos} was answered at {@code nowNanos}. */
  void answered(long sentNanos, long nowNanos) {
    answeredAtNanos = nowNanos;
    long latency = Math.max(0, nowNanos - sentNanos);
    long usual = usualLatencyNanos;
    // Racing updates may lose a sample: an average does not mind.
    usualLatencyNanos = usual == 0 ? latency : usual + (latency - usual) / 8;
    waiting.decrementAndGet();
  }

  /** A unary call ended without an answer (timed out, failed, cancelled). */
  void unanswered() {
    waiting.decrementAndGet();
  }

  /** Whether calls wait for the server and none was answered for too long, at {@code nowNanos}. */
  boolean isSilent(long nowNanos) {
    if (waiting.get() == 0) {
      return false;
    }
    long busySince = busySinceNanos;
    long answeredAt = answeredAtNanos;
    long quietSince = answeredAt - busySince > 0 ? answeredAt : busySince;
    return nowNanos - quietSince > Math.max(FLOOR_NANOS, FACTOR * usualLatencyNanos);
  }

  /** The usual latency of answered calls, in nanoseconds; 0 before the first answer. */
  long usualLatencyNanos() {
    return usualLatencyNanos;
  }
}
