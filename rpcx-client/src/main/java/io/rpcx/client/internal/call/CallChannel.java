package io.rpcx.client.internal.call;

/**
 * Where a method's calls go: one server ({@link ServerLink}) or a cluster that picks one for
 * each call. Thread-safe.
 */
public interface CallChannel {

  /**
   * Encodes {@code call} and queues it on a connection, opening one if needed. Never blocks on the
   * network.
   *
   * <p>A server channel throws an {@link io.rpcx.core.RpcxException} when the call cannot be sent
   * (arguments that cannot be encoded, a closed client, a server waiting to be reconnected); the
   * call was not sent. A cluster never throws: it fails such a call, which then ends like any
   * other.
   */
  void send(PendingCall call);

  /** {@code host:port} of the server, or a description of the cluster, for messages. */
  String address();

  /**
   * Whether a call sent now could be tried on some server: one that is not ejected nor waiting to
   * reconnect. A failed call is retried only then; otherwise its own failure says more.
   */
  default boolean hasUsableServer() {
    return true;
  }
}
