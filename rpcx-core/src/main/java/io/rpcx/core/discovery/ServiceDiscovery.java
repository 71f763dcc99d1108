package io.rpcx.core.discovery;

import java.util.List;

/**
 * Where a client learns which servers publish a service, and hears when that changes. A static list
 * ({@link StaticDiscovery}) is built in; {@code rpcx-registry-zookeeper} watches ZooKeeper.
 *
 * <p>Implementations are thread-safe and shared by every client that uses them.
 *
 * <pre>{@code
 * RpcxClient client = RpcxClient.builder().discovery(discovery).build();
 * }</pre>
 */
public interface ServiceDiscovery {

  /**
   * Starts watching {@code service}: {@code listener} receives the whole current list of its
   * endpoints, then the whole list again after every change, until the subscription is closed.
   * Calls for one subscription never overlap.
   */
  Subscription subscribe(String service, Listener listener);

  /** A short description for messages and logs, such as {@code zookeeper 10.0.0.5:2181/rpcx}. */
  String describe();

  /** Receives the endpoints of a service. Must return quickly and not block. */
  @FunctionalInterface
  interface Listener {
    /** The complete, current list of endpoints; may be empty. */
    void onEndpoints(List<ServiceEndpoint> endpoints);
  }

  /** An active watch; closing it stops the updates. */
  interface Subscription extends AutoCloseable {
    @Override
    void close();
  }
}
