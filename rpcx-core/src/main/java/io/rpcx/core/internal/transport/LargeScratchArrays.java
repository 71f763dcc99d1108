package io.rpcx.core.internal.transport;

import java.lang.ref.SoftReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A few heap arrays of up to {@link #MAX_KEPT} bytes, shared by all threads and lent to one use at
 * a time: the heap copy a received value larger than {@link ScratchArrays} keeps is decoded from
 * ({@link NettyPayload#readValue}). A long string decoded where it lies, in direct memory, is first
 * copied out by protobuf-java into a new array, which the JVM zeroes (and which G1 gives a region
 * of its own from half a region up); copied into a reused array it is not (docs/BENCHMARKS.md,
 * "Long strings").
 *
 * <p>At most {@link #SLOTS} arrays are lent at once, so values decoded at once never hold more than
 * that many heap copies: {@link #take} returns null beyond, and the value is read in place. At most
 * as many are kept between uses, softly referenced so that the collector takes them back before it
 * runs out of memory. An array is given back only once nothing reads it and nothing decoded from it
 * shares it.
 */
final class LargeScratchArrays {
  /** The longest array lent: values up to 4 MiB are decoded from a reused copy. */
  static final int MAX_KEPT = 4 * 1024 * 1024;

  /** How many arrays are lent at once, and kept, at most. */
  static final int SLOTS = 4;

  /** New arrays are a multiple of this long, so that values of about the same size share them. */
  static final int GRAIN = 64 * 1024;

  private static final AtomicReferenceArray<SoftReference<byte[]>> KEPT =
      new AtomicReferenceArray<>(SLOTS);

  private static final AtomicInteger LENT = new AtomicInteger();

  private LargeScratchArrays() {}

  /**
   * An array of {@code minLength} (at most {@link #MAX_KEPT}) bytes or more, with arbitrary
   * content, for the caller alone until it gives it back; or null when {@link #SLOTS} are lent. The
   * shortest kept array that is long enough, else a new one, rounded up to a multiple of {@link
   * #GRAIN}.
   */
  static byte[] take(int minLength) {
    if (minLength > MAX_KEPT) {
      throw new IllegalArgumentException(minLength + " bytes (expected: <= " + MAX_KEPT + ")");
    }
    if (LENT.incrementAndGet() > SLOTS) {
      LENT.decrementAndGet();
      return null;
    }
    while (true) {
      int best = -1;
      SoftReference<byte[]> bestKept = null;
      int bestLength = Integer.MAX_VALUE;
      for (int i = 0; i < SLOTS; i++) {
        SoftReference<byte[]> kept = KEPT.get(i);
        byte[] array = arrayOf(kept);
        if (array != null && array.length >= minLength && array.length < bestLength) {
          best = i;
          bestKept = kept;
          bestLength = array.length;
        }
      }
      if (best < 0) {
        try {
          return new byte[(minLength + GRAIN - 1) / GRAIN * GRAIN];
        } catch (Throwable e) { // OutOfMemoryError: lent none after all
          LENT.decrementAndGet();
          throw e;
        }
      }
      byte[] array = arrayOf(bestKept);
      if (array != null && KEPT.compareAndSet(best, bestKept, null)) {
        return array;
      }
      // Taken by another thread, or collected, meanwhile: look again.
    }
  }

  /** Forgets every kept array (those lent stay lent): a test's start without any. */
  static void forgetKept() {
    for (int i = 0; i < SLOTS; i++) {
      KEPT.set(i, null);
    }
  }

  /** How many arrays are lent now. */
  static int lent() {
    return LENT.get();
  }

  /**
   * Gives back an array from {@link #take} once nothing reads it any more: kept in an empty slot,
   * else instead of the shortest kept array if that is shorter. An array that loses a race for a
   * slot is left to the collector.
   */
  static void give(byte[] array) {
    LENT.decrementAndGet();
    int shortest = -1;
    SoftReference<byte[]> shortestKept = null;
    int shortestLength = array.length;
    for (int i = 0; i < SLOTS; i++) {
      SoftReference<byte[]> kept = KEPT.get(i);
      byte[] other = arrayOf(kept);
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

  /** The array a slot keeps, or null when it is empty or the collector took the array. */
  private static byte[] arrayOf(SoftReference<byte[]> kept) {
    return kept == null ? null : kept.get();
  }
}
