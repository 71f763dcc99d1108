package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.CallRoute;
import io.rpcx.client.internal.call.PendingCall;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The power of two choices: of two members drawn at random, the one with fewer calls in flight,
 * unless one of them is silent (calls wait for it far past its usual latency and none was
 * answered: {@link Member#isSilent}) and the other is not, which then wins. Nearly as good as
 * asking every member, at the cost of a few reads; a slow server collects calls in flight and is
 * drawn less, and one that stopped answering gets no more calls once it has been silent for a
 * fraction of a call timeout, even while the calls stuck on it are fewer than another's.
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
        boolean aSilent = a.isSilent(nowNanos);
        if (aSilent != b.isSilent(nowNanos)) {
          return aSilent ? b : a;
        }
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
