package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.CallRoute;
import io.rpcx.client.internal.call.PendingCall;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Each call to the next member in turn. A member that cannot take a call gives its turn up to the
 * next draw, so the others keep equal shares.
 */
final class RoundRobinPicker extends Picker {
  private final AtomicInteger next;

  RoundRobinPicker(Member[] members, AtomicInteger next) {
    super(members);
    this.next = next;
  }

  @Override
  Member pick(PendingCall call, long nowNanos) {
    int n = members.length;
    CallRoute avoid = call.previousRoute();
    for (int draw = 0; draw < n; draw++) {
      Member member = members[Math.floorMod(next.getAndIncrement(), n)];
      if (usable(member, avoid, nowNanos)) {
        return member;
      }
    }
    return firstUsable(Math.floorMod(next.get(), n), avoid, nowNanos);
  }
}
