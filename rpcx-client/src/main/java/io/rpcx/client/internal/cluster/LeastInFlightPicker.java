package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.CallRoute;
import io.rpcx.client.internal.call.PendingCall;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The power of two choices: of two members drawn at random, the one with fewer calls in flight.
 * Nearly as good as asking every member, at the cost of two reads; a slow or stalled server
 * collects calls in flight and is drawn less.
 */
final class LeastInFlightPicker extends Picker {
  private static final int DRAWS = 3;

  LeastInFlightPicker(Member[] members) {
    super(members);
  }

  @Override
  Member pick(PendingCall call, long nowNanos) {
    int n = members.length;
    CallRoute avoid = call.previousRoute();
    if (n == 1) {
      return members[0];
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int draw = 0; draw < DRAWS; draw++) {
      int i = random.nextInt(n);
      int j = random.nextInt(n - 1);
      if (j >= i) {
        j++;
      }
      Member a = members[i];
      Member b = members[j];
      boolean aUsable = usable(a, avoid, nowNanos);
      boolean bUsable = usable(b, avoid, nowNanos);
      if (aUsable && bUsable) {
        return b.inFlight() < a.inFlight() ? b : a;
      }
      if (aUsable) {
        return a;
      }
      if (bUsable) {
        return b;
      }
    }
    return firstUsable(random.nextInt(n), avoid, nowNanos);
  }
}
