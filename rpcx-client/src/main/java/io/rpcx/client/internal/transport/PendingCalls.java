package io.rpcx.client.internal.transport;

import io.netty.util.collection.IntObjectHashMap;
import java.util.ArrayList;
import java.util.List;

/**
 * The calls of one connection waiting for their replies, by request id. Touched only by the
 * connection's event loop, except {@link #count()}, which any thread may read.
 *
 * <p>Request ids are consecutive, and an open-addressing map that places a key at its own value
 * (as Netty's {@code IntObjectHashMap} does) keeps consecutive ids in one run of slots: removing
 * the oldest call then shifts the whole run, so with 5,000 calls in flight each removal scanned
 * thousands of slots (it took 16% of the event loop when 5,000 calls timed out together,
 * DeadlineTest). Ids are therefore stored multiplied by an odd constant, a bijection that spreads
 * consecutive ids evenly over the table.
 *
 * @param <T> what is kept per call
 */
final class PendingCalls<T> {
  /** 2^32 / phi, odd: consecutive ids land far apart and evenly spread. */
  private static final int SPREAD = 0x9E3779B9;

  private final IntObjectHashMap<T> calls = new IntObjectHashMap<>();
  private volatile int count;

  private static int key(int requestId) {
    return requestId * SPREAD;
  }

  void put(int requestId, T call) {
    calls.put(key(requestId), call);
    count = calls.size();
  }

  T get(int requestId) {
    return calls.get(key(requestId));
  }

  boolean contains(int requestId) {
    return calls.containsKey(key(requestId));
  }

  /** Removes and returns the call of {@code requestId}, or {@code null}. */
  T remove(int requestId) {
    T call = calls.remove(key(requestId));
    if (call != null) {
      count = calls.size();
    }
    return call;
  }

  /** Removes and returns every call. */
  List<T> removeAll() {
    List<T> all = new ArrayList<>(calls.values());
    calls.clear();
    count = 0;
    return all;
  }

  int size() {
    return calls.size();
  }

  boolean isEmpty() {
    return calls.isEmpty();
  }

  /** The number of calls, as last written by the event loop; for any thread. */
  int count() {
    return count;
  }
}
