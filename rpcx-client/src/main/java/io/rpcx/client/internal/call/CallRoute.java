package io.rpcx.client.internal.call;

/**
 * The server a call was sent to, as its balancer sees it: told once how the call ended, so that it
 * can count calls in flight and failures. Implemented by the cluster; thread-safe.
 */
public interface CallRoute {

  /** {@code host:port} of the server, for messages. */
  String address();

  /** {@code call} ended; called exactly once per call routed here. */
  void ended(PendingCall call, CallOutcome outcome);
}
