package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.PendingCall;

/**
 * Prefers the members in the client's zone: the zone's own picker chooses while one of them may
 * take a call (a retry avoids the one its attempt before went to, if another is left), the picker
 * of all members when none may. A zone that runs out of eligible servers (ejected, unreachable)
 * so overflows into the others, and comes back as soon as one of its servers does.
 */
final class ZonePreferringPicker extends Picker {
  private final Picker local;
  private final Picker all;

  ZonePreferringPicker(Picker local, Picker all) {
    super(all.members);
    this.local = local;
    this.all = all;
  }

  @Override
  Member pick(PendingCall call, long nowNanos) {
    for (Member member : local.members) {
      if (usable(member, call.previousRoute(), nowNanos)) {
        return local.pick(call, nowNanos);
      }
    }
    return all.pick(call, nowNanos);
  }
}
