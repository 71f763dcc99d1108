package io.rpcx.client.internal.transport;

import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.concurrent.EventExecutor;
import io.rpcx.client.internal.call.PendingCall;
import java.util.ArrayList;
import java.util.List;

/**
 * The calls of one connection waiting for their replies, by request id, with their deadlines: a
 * call registered here is timed on the event loop if it needs a timer, and its timer is cancelled
 * when it leaves by its reply, its caller giving up or the connection closing. Touched only by
 * the connection's event loop, except {@link #count()}, which any thread may read.
 *
 * <p>Request ids are consecutive, and an open-addressing map that places a key at its own value
 * (as Netty's {@code IntObjectHashMap} does) keeps consecutive ids in one run of slots: removing
 * the oldest call then shifts the whole run, so with 5,000 calls in flight each removal scanned
 * thousands of slots (it took 16% of the event loop when 5,000 calls timed out together,
 * DeadlineTest). Ids are therefore stored multiplied by an odd constant, a bijection that spreads
 * consecutive ids evenly over the table.
 */
final class PendingCalls {
  /** 2^32 / phi, odd: consecutive ids land far apart and evenly spread. */
  private static final int SPREAD = 0x9E3779B9;

  private final IntObjectHashMap<OutboundCall> calls = new IntObjectHashMap<>();
  private volatile int count;

  private static int key(int requestId) {
    return requestId * SPREAD;
  }

  /**
   * Registers {@code outbound} under its request id, and times it on {@code loop} (the
   * connection's event loop) if it needs a timer and is not timed yet.
   */
  void add(OutboundCall outbound, EventExecutor loop) {
    calls.put(key(outbound.call.requestId()), outbound);
    count = calls.size();
    if (outbound.call.needsTimer()) {
      outbound.startDeadline(loop);
    }
  }

  boolean contains(int requestId) {
    return calls.containsKey(key(requestId));
  }

  /** Removes the call of {@code requestId}, whose reply came, with its timer; or {@code null}. */
  OutboundCall answered(int requestId) {
    OutboundCall outbound = calls.remove(key(requestId));
    if (outbound != null) {
      count = calls.size();
      outbound.cancelDeadline();
    }
    return outbound;
  }

  /** Removes {@code outbound}, whose deadline passed, if it is still here. */
  void expired(OutboundCall outbound) {
    int key = key(outbound.call.requestId());
    if (calls.get(key) == outbound) {
      calls.remove(key);
      count = calls.size();
    }
  }

  /**
   * Removes the call with this request id if it is {@code call}'s, with its timer; true if it was
   * here.
   */
  boolean abandoned(PendingCall call, int requestId) {
    int key = key(requestId);
    OutboundCall outbound = calls.get(key);
    if (outbound != null && outbound.call == call) {
      calls.remove(key);
      count = calls.size();
      outbound.cancelDeadline();
      return true;
    }
    return false;
  }

  /** The call of {@code requestId}, left in place (a stream's message came), or {@code null}. */
  OutboundCall get(int requestId) {
    return calls.get(key(requestId));
  }

  /** Removes every call, with its timer, and returns them. */
  List<OutboundCall> removeAll() {
    List<OutboundCall> all = new ArrayList<>(calls.values());
    calls.clear();
    count = 0;
    for (OutboundCall outbound : all) {
      outbound.cancelDeadline();
    }
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
