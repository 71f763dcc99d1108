package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.CallRoute;
import io.rpcx.client.internal.call.PendingCall;

/**
 * Picks the member for each call from one fixed list of members; a cluster makes a new picker when
 * its members change. Pickers skip members that are not eligible (ejected, probing with a call in
 * flight, waiting to reconnect) and, for a retry, the member the previous attempt went to, as long
 * as another is left. When none is eligible they pick anyway, so that calls still try and fail fast
 * instead of being refused by the client alone. Thread-safe.
 */
abstract class Picker {
  final Member[] members;

  Picker(Member[] members) {
    this.members = members;
  }

  /** The member for {@code call}; {@code members} is not empty. */
  abstract Member pick(PendingCall call, long nowNanos);

  static boolean usable(Member member, CallRoute avoid, long nowNanos) {
    return member != avoid && member.isEligible(nowNanos);
  }

  /**
   * The first eligible member from {@code start} on that is not {@code avoid}; else the first
   * eligible one; else the first that is not {@code avoid}; else the one at {@code start}.
   */
  final Member firstUsable(int start, CallRoute avoid, long nowNanos) {
    int n = members.length;
    Member eligibleAvoided = null;
    Member notAvoided = null;
    for (int k = 0; k < n; k++) {
      Member member = members[(start + k) % n];
      if (member.isEligible(nowNanos)) {
        if (member != avoid) {
          return member;
        }
        eligibleAvoided = member;
      } else if (notAvoided == null && member != avoid) {
        notAvoided = member;
      }
    }
    if (eligibleAvoided != null) {
      return eligibleAvoided;
    }
    return notAvoided != null ? notAvoided : members[start % n];
  }
}
