package io.rpcx.core.internal.codec;

import java.util.Arrays;

/**
 * Sizes computed in the size pass of an encoding, replayed in the write pass.
 *
 * <p>Protobuf writes each nested message behind its length, so lengths must be known before the
 * bytes. Encoding therefore walks a value twice: {@link ValueCodec#encodedSize} reserves a slot per
 * nested message in pre-order and fills it; {@link ValueCodec#write} takes the slots back in the
 * same order. One instance serves one encoding on one thread.
 */
public final class SizeCache {
  private int[] sizes = new int[8];
  private int count;
  private int cursor;

  /** Reserves the next slot (size pass) and returns its index. */
  public int reserve() {
    if (count == sizes.length) {
      sizes = Arrays.copyOf(sizes, count * 2);
    }
    return count++;
  }

  /** Stores the size computed for a reserved slot (size pass). */
  public void set(int slot, int size) {
    sizes[slot] = size;
  }

  /** Takes the next size in reservation order (write pass). */
  public int next() {
    if (cursor >= count) {
      throw new IllegalStateException("value changed between size and write pass");
    }
    return sizes[cursor++];
  }
}
