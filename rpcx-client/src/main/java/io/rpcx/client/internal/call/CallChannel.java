package io.rpcx.client.internal.call;

/**
 * Where a method's calls go: the transport's view of one server endpoint. Implemented by the
 * transport; thread-safe.
 */
public interface CallChannel {

  /**
   * Encodes {@code call} and queues it on a connection to the endpoint, opening one if needed. Never
   * blocks on the network.
   *
   * @throws io.rpcx.core.RpcxException if the call cannot be sent (arguments that cannot be
   *     encoded, a closed client); the call was not sent
   */
  void send(PendingCall call);

  /** {@code host:port} of the endpoint, for messages. */
  String address();
}
