package io.rpcx.core.internal.transport;

import io.netty.util.internal.PlatformDependent;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes a whole server (or client) may hold in what it has received and not yet processed:
 * frames still arriving, and requests (or replies) received whole and waiting to be decoded. The
 * frame limit bounds one frame; this bounds their sum, so that many peers each parking a frame just
 * short of complete cannot exhaust memory.
 *
 * <p>A connection holding {@value #SMALL_HOLDING} bytes or more whose read takes the total over
 * the limit stops being read (its peer then waits on TCP flow control); any connection does once
 * the total passes the limit by an eighth. Reading resumes when the total falls under 7/8 of the
 * limit. While connections wait, the one holding the largest incomplete frame (the oldest of
 * those as large) for at least {@value #STALLED_MILLIS} ms is closed and told why, and the next,
 * until the rest can resume. Thread-safe.
 */
public final class InboundBudget {
  /** How long an incomplete frame must have been held before its connection may be closed. */
  static final long STALLED_MILLIS = 100;

  /**
   * A connection holding less than this is not paused until the total passes the limit by an
   * eighth: one sending small frames keeps being served while large ones fill the budget.
   */
  static final long SMALL_HOLDING = 64 * 1024;

  private final long limit;
  private final String owner;
  private final long resumeBelow;
  private final long hardLimit;
  private final AtomicLong held = new AtomicLong();
  private final Set<InboundMeter> meters = ConcurrentHashMap.newKeySet();
  private final Set<InboundMeter> paused = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean reliefScheduled = new AtomicBoolean();

  /** A budget of {@code limit} bytes for a {@code owner} ("server" or "client"), for messages. */
  public InboundBudget(long limit, String owner) {
    if (limit < 1) {
      throw new IllegalArgumentException("inbound budget: " + limit + " (expected: >= 1)");
    }
    this.limit = limit;
    this.owner = owner;
    this.resumeBelow = limit - limit / 8;
    this.hardLimit = limit + limit / 8;
  }

  /**
   * The default budget: a quarter of the direct memory Netty may use (the JVM's {@code
   * -XX:MaxDirectMemorySize}, which defaults to the heap's maximum), leaving the rest for frames
   * being sent, read buffers and the allocator's unused pages.
   */
  public static long defaultLimit() {
    return Math.max(16L * 1024 * 1024, PlatformDependent.maxDirectMemory() / 4);
  }

  public long limit() {
    return limit;
  }

  /** Bytes held now, over all connections. */
  public long held() {
    return held.get();
  }

  /** A meter for a new connection; {@code evict} closes it, telling its peer the reason. */
  public InboundMeter meter(InboundMeter.Evictor evict) {
    InboundMeter meter = new InboundMeter(this, evict);
    meters.add(meter);
    return meter;
  }

  void closed(InboundMeter meter) {
    meters.remove(meter);
    paused.remove(meter);
  }

  /** Adds {@code bytes} (negative to release); resumes paused connections once there is room. */
  void add(long bytes) {
    long now = held.addAndGet(bytes);
    if (bytes < 0 && now < resumeBelow && !paused.isEmpty()) {
      for (InboundMeter meter : paused) {
        if (paused.remove(meter)) {
          meter.resume();
        }
      }
    }
  }

  /** Whether a connection now holding {@code holding} bytes must stop being read. */
  boolean mustPause(long holding) {
    long now = held.get();
    return now > hardLimit || now > limit && holding >= SMALL_HOLDING;
  }

  /** Pauses {@code meter}'s connection, which took the total over the limit. */
  void pause(InboundMeter meter) {
    paused.add(meter);
    meter.pauseReading();
    if (held.get() < resumeBelow && paused.remove(meter)) {
      meter.resume(); // released meanwhile
    }
    scheduleRelief(meter);
  }

  private void scheduleRelief(InboundMeter from) {
    if (reliefScheduled.compareAndSet(false, true) && !from.schedule(this::relieve, STALLED_MILLIS)) {
      reliefScheduled.set(false);
    }
  }

  /**
   * While connections wait to be read again (or the total is over the limit), closes the
   * connections that hold the largest incomplete frames for at least {@link #STALLED_MILLIS}, until
   * the total would let them resume; looks again later while some still wait.
   */
  private void relieve() {
    reliefScheduled.set(false);
    long now = System.nanoTime();
    long reclaimed = 0;
    long target = paused.isEmpty() ? limit : resumeBelow - 1;
    while (held.get() - reclaimed > target) {
      InboundMeter victim = null;
      for (InboundMeter meter : meters) {
        if (!meter.isEvicted()
            && meter.partialBytes() > 0
            && now - meter.partialSinceNanos() >= TimeUnit.MILLISECONDS.toNanos(STALLED_MILLIS)
            && (victim == null
                || meter.partialBytes() > victim.partialBytes()
                || meter.partialBytes() == victim.partialBytes()
                    && meter.partialSinceNanos() < victim.partialSinceNanos())) {
          victim = meter;
        }
      }
      if (victim == null) {
        break;
      }
      reclaimed += victim.partialBytes();
      victim.evict(
          "the " + limit + " bytes this " + owner + " holds for incoming frames are used up, and this"
              + " connection held " + victim.partialBytes() + " bytes of an incomplete frame for "
              + TimeUnit.NANOSECONDS.toMillis(now - victim.partialSinceNanos()) + " ms");
    }
    for (InboundMeter meter : paused.isEmpty() && held.get() > limit ? meters : paused) {
      scheduleRelief(meter); // look again while connections wait or the total is over
      break;
    }
  }
}
