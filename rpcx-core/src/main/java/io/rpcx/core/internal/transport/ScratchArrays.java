package io.rpcx.core.internal.transport;

import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.internal.PlatformDependent;

/**
 * One heap array per platform thread, lent to one use at a time: the array a small frame's payload
 * is staged in ({@link Frames#stage}) and the heap copy a received value is decoded from ({@link
 * NettyPayload#readValue}). Without it each of them is a new array per frame, about 40% of the
 * bytes a call of 100 {@code OrderInfo}s allocates (docs/BENCHMARKS.md, "Bytes per call").
 *
 * <p>{@link #take} leaves the thread without an array until {@link #give} brings it back, so a use
 * nested in another on the same thread (an encoding whose getter makes a call of its own) gets an
 * array of its own, never the one in use. An array is given back only once its bytes are no longer
 * needed: copied into the frame, or decoded into values that never share it. A thread keeps at
 * most one array, of at most {@link #MAX_KEPT} bytes; virtual threads keep none (with one thread
 * per call, an array kept per thread would be an array per call).
 */
final class ScratchArrays {
  /**
   * The longest array a thread keeps: a staged payload of up to 64 KiB with its slack, or a heap
   * copy of one. A thread that staged or copied more gives the array to the garbage collector.
   */
  static final int MAX_KEPT = 72 * 1024;

  /** The array a thread keeps while it is not lent. */
  private static final class Slot {
    byte[] array;
  }

  private static final FastThreadLocal<Slot> SLOTS =
      new FastThreadLocal<>() {
        @Override
        protected Slot initialValue() {
          return new Slot();
        }
      };

  private ScratchArrays() {}

  /**
   * An array of at least {@code minLength} bytes, with arbitrary content, for the caller alone
   * until it gives it back: the thread's own if it is long enough, else a new one.
   */
  static byte[] take(int minLength) {
    Slot slot = slot();
    if (slot != null) {
      byte[] array = slot.array;
      if (array != null && array.length >= minLength) {
        slot.array = null;
        return array;
      }
    }
    return new byte[minLength];
  }

  /**
   * Gives back an array from {@link #take} (or one that replaced it as it grew) once nothing reads
   * it any more; the thread keeps the longer of it and the one it holds, up to {@link #MAX_KEPT}.
   */
  static void give(byte[] array) {
    if (array.length > MAX_KEPT) {
      return;
    }
    Slot slot = slot();
    if (slot != null && (slot.array == null || slot.array.length < array.length)) {
      slot.array = array;
    }
  }

  /** The calling thread's slot, or null on a virtual thread. */
  private static Slot slot() {
    Thread thread = Thread.currentThread();
    // Event loops (FastThreadLocalThreads) use it most: they skip the virtual-thread check.
    if (thread instanceof FastThreadLocalThread || !PlatformDependent.isVirtualThread(thread)) {
      return SLOTS.get();
    }
    return null;
  }
}
