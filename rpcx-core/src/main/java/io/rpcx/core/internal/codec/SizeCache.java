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
  /** Deepest nesting accepted while encoding; deeper means a cycle in the object graph, usually. */
  public static final int MAX_ENCODE_DEPTH = 64;

  private int[] sizes = new int[8];
  private int count;
  private int cursor;
  private int depth;

  /** Enters one level of nesting (size pass), failing on a likely cycle. */
  public void enter(String typeName) throws CodecException {
    if (++depth > MAX_ENCODE_DEPTH) {
      throw new CodecException(
          "value nested deeper than " + MAX_ENCODE_DEPTH + " levels at " + typeName
              + ": does the object graph contain a cycle?");
    }
  }

  /** Leaves the level entered last. */
  public void exit() {
    depth--;
  }

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
