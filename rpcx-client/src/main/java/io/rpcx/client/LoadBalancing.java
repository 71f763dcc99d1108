package io.rpcx.client;

/**
 * How a client spreads the calls of a service over its servers. Set for a whole client with {@link
 * RpcxClient.Builder#loadBalancing(LoadBalancing)} and per service interface with {@link
 * RpcxClient.Builder#loadBalancing(Class, LoadBalancing)}. Every strategy skips servers that are
 * ejected or waiting to reconnect, and sends a retry elsewhere when it can.
 */
public enum LoadBalancing {
  /** Each call to the next server in turn: equal shares, whatever each server's speed. */
  ROUND_ROBIN,
  /**
   * The default: of two servers drawn at random, the one with fewer calls in flight (the "power of
   * two choices"). Adapts to slow servers and to servers that just joined.
   */
  LEAST_IN_FLIGHT,
  /**
   * Consistent hashing on the argument annotated {@link io.rpcx.annotation.RoutingKey}: calls with
   * the same key go to the same server while it is healthy (sticky routing, for caches and
   * sessions), and only the keys of a server that leaves or joins move. Methods without a routing
   * key use {@link #LEAST_IN_FLIGHT}.
   */
  CONSISTENT_HASHING
}
