package io.rpcx.server.internal.transport;

import io.netty.util.collection.IntObjectHashMap;
import io.rpcx.server.internal.dispatch.CancellableCall;
import java.util.ArrayList;
import java.util.List;

/**
 * The unary calls of one connection from dispatch to their end, by request id, so that the
 * client's cancel reaches the call it names (docs/PROTOCOL.md, 1.7) and every call is cancelled
 * when the connection closes. A call is added on the event loop and removed by the thread that
 * ends it: a map of primitive keys under this object's monitor costs a call no allocation.
 * Request ids are consecutive, so keys are spread as the client's {@code PendingCalls} spreads
 * them. Thread-safe.
 */
final class UnaryCalls {
  /** 2^32 / phi, odd: consecutive ids land far apart and evenly spread. */
  private static final int SPREAD = 0x9E3779B9;

  private final IntObjectHashMap<CancellableCall> calls = new IntObjectHashMap<>();

  synchronized void started(CancellableCall call) {
    calls.put(call.requestId() * SPREAD, call);
  }

  synchronized void ended(CancellableCall call) {
    int key = call.requestId() * SPREAD;
    if (calls.get(key) == call) {
      calls.remove(key);
    }
  }

  /** The client cancelled the call of {@code requestId}, saying {@code reason}, if it runs. */
  void cancel(int requestId, String reason) {
    CancellableCall call;
    synchronized (this) {
      call = calls.get(requestId * SPREAD);
    }
    if (call != null) {
      call.cancel(reason);
    }
  }

  /** Cancels every call, saying {@code reason}: the connection closed, or is being closed. */
  void cancelAll(String reason) {
    List<CancellableCall> all;
    synchronized (this) {
      all = new ArrayList<>(calls.values());
    }
    for (CancellableCall call : all) {
      call.cancel(reason);
    }
  }
}
