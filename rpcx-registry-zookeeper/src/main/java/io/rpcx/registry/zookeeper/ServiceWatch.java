package io.rpcx.registry.zookeeper;

import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the registration nodes of one service with a {@link CuratorCache} and tells a listener
 * the whole list after each change. Holds changes back while the connection to ZooKeeper is
 * suspended or lost (the servers known keep being used), and sends the current list once it is
 * back. Calls to the listener never overlap.
 */
final class ServiceWatch implements AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(ServiceWatch.class);
  /** Most servers taken from the registry for one service; the rest are ignored, with a warning. */
  static final int MAX_ENDPOINTS = 10_000;

  private final CuratorFramework client;
  private final String path;
  private final String service;
  private final ServiceDiscovery.Listener listener;
  private final CuratorCache cache;
  private final CountDownLatch initialized = new CountDownLatch(1);
  private final ConnectionStateListener connectionListener = this::connectionChanged;
  /** Nodes already reported as unreadable, with the version of their data. */
  private final Map<String, Integer> reported = new ConcurrentHashMap<>();
  private volatile boolean connected = true;
  private List<ServiceEndpoint> delivered;
  private boolean closed;

  ServiceWatch(
      CuratorFramework client, String path, String service, ServiceDiscovery.Listener listener) {
    this.client = client;
    this.path = path;
    this.service = service;
    this.listener = listener;
    this.cache = CuratorCache.build(client, path);
  }

  void start(Duration initialListTimeout, String registry) {
    cache
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forAll((type, before, after) -> refresh())
                .forInitialized(
                    () -> {
                      initialized.countDown();
                      refresh();
                    })
                .build());
    client.getConnectionStateListenable().addListener(connectionListener);
    cache.start();
    boolean ready;
    try {
      ready = initialized.await(initialListTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ready = false;
    }
    if (!ready) {
      logger.warn(
          "{} did not list the servers of service '{}' within {} ms; none known until it does",
          registry,
          service,
          initialListTimeout.toMillis());
    }
    deliver(ready);
  }

  private void connectionChanged(CuratorFramework ignored, ConnectionState state) {
    boolean nowConnected = state.isConnected();
    if (nowConnected != connected) {
      connected = nowConnected;
      if (nowConnected) {
        logger.info("Back in touch with ZooKeeper: following service '{}' again", service);
        refresh();
      } else {
        logger.warn(
            "Lost touch with ZooKeeper ({}): keeping the known servers of service '{}'",
            state,
            service);
      }
    }
  }

  private void refresh() {
    if (initialized.getCount() == 0) {
      deliver(true);
    }
  }

  /** Sends the current list if it changed; with {@code force}, sends even an unchanged first one. */
  private synchronized void deliver(boolean ready) {
    if (closed || (!connected && delivered != null)) {
      return;
    }
    List<ServiceEndpoint> current = ready ? read() : List.of();
    if (current.equals(delivered)) {
      return;
    }
    delivered = current;
    try {
      listener.onEndpoints(current);
    } catch (RuntimeException e) {
      logger.error("The listener of service '{}' failed on {}", service, current, e);
    }
  }

  private List<ServiceEndpoint> read() {
    List<ServiceEndpoint> endpoints = new ArrayList<>();
    Set<String> unreadable = new HashSet<>();
    String prefix = path + "/";
    List<ChildData> nodes =
        cache.stream()
            .filter(node -> node.getPath().startsWith(prefix))
            .filter(node -> node.getPath().indexOf('/', prefix.length()) < 0)
            .sorted(Comparator.comparing(ChildData::getPath))
            .collect(Collectors.toList());
    for (ChildData node : nodes) {
      if (endpoints.size() == MAX_ENDPOINTS) {
        logger.warn(
            "Service '{}' has {} registration nodes; using the first {}",
            service,
            nodes.size(),
            MAX_ENDPOINTS);
        break;
      }
      try {
        endpoints.add(EndpointRecord.decode(node.getData()));
      } catch (IllegalArgumentException e) {
        unreadable.add(node.getPath());
        int version = node.getStat() == null ? -1 : node.getStat().getVersion();
        Integer previous = reported.put(node.getPath(), version);
        if (previous == null || previous != version) {
          logger.warn("Skipping registration node {}: {}", node.getPath(), e.getMessage());
        }
      }
    }
    reported.keySet().retainAll(unreadable); // forget nodes that are gone or were fixed
    return List.copyOf(endpoints);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    client.getConnectionStateListenable().removeListener(connectionListener);
    cache.close();
  }

  @Override
  public String toString() {
    return "watch of " + path;
  }
}
