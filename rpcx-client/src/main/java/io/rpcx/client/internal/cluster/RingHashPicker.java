package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.CallRoute;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.RoutingKeys;
import java.util.Arrays;

/**
 * Consistent hashing on the {@code @RoutingKey} argument (ketama): each member owns {@value
 * #POINTS_PER_MEMBER} points on a ring of 64-bit hashes of {@code address#i}; a key goes to the
 * owner of the first point at or after its hash, or on to the next usable owner clockwise. The ring
 * depends only on the addresses, so every client maps a key to the same server, and when a server
 * leaves or joins only the keys next to its points move. Methods without a routing key are balanced
 * by least in-flight calls.
 */
final class RingHashPicker extends Picker {
  static final int POINTS_PER_MEMBER = 160;

  private final long[] points;
  private final Member[] owners;
  private final LeastInFlightPicker withoutKey;

  RingHashPicker(Member[] members) {
    super(members);
    this.withoutKey = new LeastInFlightPicker(members);
    int total = members.length * POINTS_PER_MEMBER;
    long[][] entries = new long[total][];
    int k = 0;
    for (int m = 0; m < members.length; m++) {
      for (int p = 0; p < POINTS_PER_MEMBER; p++) {
        entries[k++] = new long[] {RoutingKeys.hash(members[m].address() + "#" + p), m};
      }
    }
    Arrays.sort(
        entries,
        (x, y) -> {
          int byHash = Long.compareUnsigned(x[0], y[0]);
          // Equal hashes (vanishingly rare) are ordered by address, the same in every client.
          return byHash != 0
              ? byHash
              : members[(int) x[1]].address().compareTo(members[(int) y[1]].address());
        });
    this.points = new long[total];
    this.owners = new Member[total];
    for (int i = 0; i < total; i++) {
      points[i] = entries[i][0];
      owners[i] = members[(int) entries[i][1]];
    }
  }

  @Override
  Member pick(PendingCall call, long nowNanos) {
    if (!call.hasRoutingKey()) {
      return withoutKey.pick(call, nowNanos);
    }
    int start = ceiling(call.routingHash());
    CallRoute avoid = call.previousRoute();
    int n = owners.length;
    for (int k = 0; k < n; k++) {
      Member owner = owners[(start + k) % n];
      if (usable(owner, avoid, nowNanos)) {
        return owner;
      }
    }
    return owners[start];
  }

  /** Index of the first point at or after {@code hash}, wrapping to 0. */
  private int ceiling(long hash) {
    int low = 0;
    int high = points.length - 1;
    if (Long.compareUnsigned(hash, points[high]) > 0) {
      return 0;
    }
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (Long.compareUnsigned(points[mid], hash) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
