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

  /**
   * What this discovery looks up for {@code service}, for messages and logs: where it looks and
   * what it asks for, such as {@code DNS A/AAAA records of orders.shop.svc:9000}. By default
   * {@link #describe()}.
   */
  default String describe(String service) {
    return describe();
  }

  /** Receives the endpoints of a service. Must return quickly and not block. */
  @FunctionalInterface
  interface Listener {
    /** The complete, current list of endpoints; may be empty. */
    void onEndpoints(List<ServiceEndpoint> endpoints);

    /**
     * The discovery cannot read the list now (the registry is unreachable or refuses access, or
     * what it lists is not valid): {@code problem} says what went wrong, in a sentence for
     * messages. The last list delivered stays in force; the next {@link #onEndpoints} clears the
     * problem. By default ignored.
     */
    default void onProblem(String problem) {}
  }

  /** An active watch; closing it stops the updates. */
  interface Subscription extends AutoCloseable {

    /**
     * A hint that the list may be out of date: the client lost its connection to one of the
     * servers listed (it stopped, or told the client to go away). A discovery that looks its list
     * up (DNS) looks again soon; one that is told of every change (ZooKeeper, Kubernetes) need
     * not do anything, which is the default. Must return quickly and not block.
     */
    default void refresh() {}

    @Override
    void close();
  }
}
