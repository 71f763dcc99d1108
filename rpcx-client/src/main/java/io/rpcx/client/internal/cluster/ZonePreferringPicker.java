package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.CallRoute;
import io.rpcx.client.internal.call.PendingCall;

/**
 * Prefers the members in the client's zone: the zone's own picker chooses while one of them may
 * take a call (a retry avoids the one its attempt before went to, if another is left), the picker
 * of all members when none may. A zone that runs out of eligible servers (ejected, unreachable)
 * so overflows into the others, and comes back as soon as one of its servers does.
 *
 * <p>Under least in-flight, which passes over silent servers ({@link Member#isSilent}), a zone
 * whose eligible servers are all silent overflows too, while a server of another zone answers:
 * the zone's own picker would have only silent servers to choose from. When every server is
 * silent, the zone's keep the calls.
 */
final class ZonePreferringPicker extends Picker {
  private final Picker local;
  private final Picker all;
  private final boolean passOverSilent;

  /**
   * {@code passOverSilent}: whether the strategy of both pickers prefers servers that answer
   * (least in-flight), which this then does between zones too.
   */
  ZonePreferringPicker(Picker local, Picker all, boolean passOverSilent) {
    super(all.members);
    this.local = local;
    this.all = all;
    this.passOverSilent = passOverSilent;
  }

  @Override
  Member pick(PendingCall call, long nowNanos) {
    CallRoute avoid = call.previousRoute();
    boolean silentOnly = false;
    for (Member member : local.members) {
      if (usable(member, avoid, nowNanos)) {
        if (!passOverSilent || !member.isSilent(nowNanos)) {
          return local.pick(call, nowNanos);
        }
        silentOnly = true;
      }
    }
    if (silentOnly && !anotherAnswers(avoid, nowNanos)) {
      return local.pick(call, nowNanos); // every server is silent
    }
    return all.pick(call, nowNanos);
  }

  /** Whether a usable member is not silent; only ones of other zones can be, when asked. */
  private boolean anotherAnswers(CallRoute avoid, long nowNanos) {
    for (Member member : members) {
      if (usable(member, avoid, nowNanos) && !member.isSilent(nowNanos)) {
        return true;
      }
    }
    return false;
  }
}
