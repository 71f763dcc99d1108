package io.rpcx.client.internal.call;

import io.rpcx.core.RpcxContext;

/**
 * One call of a client method, shared by its attempts: its arguments, its deadline and the context
 * it was made in.
 *
 * @param deadlineNanos when the call times out, in {@link System#nanoTime()} terms
 * @param budgetNanos the time the call had when it was made (zero or less: none)
 * @param caller the context the call was made in
 * @param inherited whether the deadline is the caller's, earlier than the method's own timeout
 */
record Invocation(
    Object[] args, long deadlineNanos, long budgetNanos, RpcxContext caller, boolean inherited) {

  /**
   * An invocation with {@code args} at {@code nowNanos} of {@code method}, in the current context.
   */
  static Invocation of(ClientMethod method, Object[] args, long nowNanos) {
    long deadline = nowNanos + method.timeoutNanos();
    RpcxContext caller = RpcxContext.current();
    if (method.model().inheritsDeadline()
        && caller.hasDeadline()
        && caller.deadlineNanoTime() - deadline < 0) {
      long inherited = caller.deadlineNanoTime();
      return new Invocation(args, inherited, inherited - nowNanos, caller, true);
    }
    return new Invocation(args, deadline, method.timeoutNanos(), caller, false);
  }

  /** What set an inherited deadline, for messages; built only when one is needed. */
  String deadlineSource() {
    return caller.isServingCall()
        ? "the deadline of " + caller.service() + "/" + caller.method() + ", the call being served,"
        : "the deadline of the calling context";
  }
}
