package io.rpcx.core.internal.transport;

import java.lang.ref.SoftReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A few heap arrays of up to {@link #MAX_KEPT} bytes, shared by all threads and lent to one use at
 * a time: the heap copy a received value larger than {@link ScratchArrays} keeps is decoded from
 * ({@link NettyPayload#readValue}). A new array of a MiB costs more than copying a MiB into it:
 * the JVM zeroes it first, and the G1 collector gives an array of half a region or more a region
 * of its own. Reused, the copy and the decode are all that is left (docs/VALUES.md, "Large values:
 * how many copies").
 *
 * <p>At most {@link #SLOTS} arrays are kept, softly referenced so that the collector takes them
 * back before it runs out of memory; more uses at once than that get new arrays, as before. An
 * array is given back only once nothing reads it and nothing decoded from it shares it.
 */
final class LargeScratchArrays {
  /** The longest array kept: values up to 4 MiB are decoded from a reused copy. */
  static final int MAX_KEPT = 4 * 1024 * 1024;

  /** How many arrays are kept at most. */
  static final int SLOTS = 4;

  private static final AtomicReferenceArray<SoftReference<byte[]>> KEPT =
      new AtomicReferenceArray<>(SLOTS);

  private LargeScratchArrays() {}

  /** New arrays are a multiple of this long, so that values of about the same size share them. */
  static final int GRAIN = 64 * 1024;

  /**
   * An array of at least {@code minLength} bytes, with arbitrary content, for the caller alone
   * until it gives it back: a kept one if one is long enough, else a new one (rounded up to a
   * multiple of {@link #GRAIN} if that is at most {@link #MAX_KEPT}).
   */
  static byte[] take(int minLength) {
    for (int i = 0; i < SLOTS; i++) {
      SoftReference<byte[]> kept = KEPT.get(i);
      byte[] array = kept == null ? null : kept.get();
      if (array != null && array.length >= minLength && KEPT.compareAndSet(i, kept, null)) {
        return array;
      }
    }
    long rounded = ((long) minLength + GRAIN - 1) / GRAIN * GRAIN;
    return new byte[rounded <= MAX_KEPT ? (int) rounded : minLength];
  }

  /**
   * Gives back an array from {@link #take} once nothing reads it any more: kept in an empty slot,
   * else instead of the shortest kept array if that is shorter, if it is at most {@link #MAX_KEPT}
   * bytes. An array that loses a race for a slot is left to the collector.
   */
  static void give(byte[] array) {
    if (array.length > MAX_KEPT) {
      return;
    }
    int shortest = -1;
    SoftReference<byte[]> shortestKept = null;
    int shortestLength = array.length;
    for (int i = 0; i < SLOTS; i++) {
      SoftReference<byte[]> kept = KEPT.get(i);
      byte[] other = kept == null ? null : kept.get();
      if (other == null) {
        if (KEPT.compareAndSet(i, kept, new SoftReference<>(array))) {
          return;
        }
      } else if (other.length < shortestLength) {
        shortest = i;
        shortestKept = kept;
        shortestLength = other.length;
      }
    }
    if (shortest >= 0) {
      KEPT.compareAndSet(shortest, shortestKept, new SoftReference<>(array));
    }
  }
}
