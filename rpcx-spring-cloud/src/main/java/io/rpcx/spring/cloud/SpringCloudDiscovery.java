package io.rpcx.spring.cloud;

import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;

/**
 * Finds the servers of each RPCX service through a Spring Cloud {@link DiscoveryClient}, whichever
 * registry it reads (Eureka, Consul, Nacos, Kubernetes, ZooKeeper, the simple one of the
 * properties): the instances of the service's Spring Cloud service id, on the port each publishes
 * in its metadata under {@value #PORT_KEY} (what a server with this module registers beside its
 * HTTP port; {@code port.rpcx}, the port named {@code rpcx} of Spring Cloud Kubernetes, also
 * does).
 *
 * <pre>{@code
 * SpringCloudDiscovery discovery = SpringCloudDiscovery.builder(discoveryClient)
 *     .service("orders", "order-service")   // RPCX service -> Spring Cloud service id
 *     .build();                             // others: the service id of the same name
 * RpcxClient client = RpcxClient.builder().discovery(discovery).build();
 * }</pre>
 *
 * <p>A {@code DiscoveryClient} only answers when asked, so each service id is asked again every
 * refresh interval (default 5 s), at once when the application publishes Spring Cloud's {@code
 * HeartbeatEvent} (registries that watch their catalog do: {@link #catalogChanged()}), and soon
 * after a client lost a connection to one of the servers, never twice within a second. A failed
 * lookup keeps the servers known; an instance without the port is skipped with a warning naming
 * it. Instances carry their zone ({@code zone} metadata) and instance id. Thread-safe; {@link
 * #close()} stops the refreshes.
 */
public final class SpringCloudDiscovery implements ServiceDiscovery, AutoCloseable {
  /** The metadata key under which servers publish their RPCX port. */
  public static final String PORT_KEY = "rpcx-port";
  /** The metadata key of a port named {@code rpcx} in Spring Cloud Kubernetes. */
  static final String KUBERNETES_PORT_KEY = "port.rpcx";
  private static final Logger logger = LoggerFactory.getLogger(SpringCloudDiscovery.class);
  private static final long MIN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final Supplier<DiscoveryClient> client;
  private final Map<String, String> serviceIds;
  private final long refreshMillis;
  private final ScheduledExecutorService scheduler;
  /** The watches open, by service id; guarded by {@code this}. */
  private final Map<String, Watch> watches = new HashMap<>();
  private boolean closed;

  private SpringCloudDiscovery(Builder builder) {
    this.client = builder.client;
    this.serviceIds = Map.copyOf(builder.serviceIds);
    this.refreshMillis = builder.refreshInterval.toMillis();
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "rpcx-spring-cloud-discovery");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** A builder over {@code client}. */
  public static Builder builder(DiscoveryClient client) {
    Objects.requireNonNull(client, "client");
    return new Builder(() -> client);
  }

  /** A builder over a client found when the first service is subscribed to (a Spring bean). */
  static Builder builder(Supplier<DiscoveryClient> client) {
    return new Builder(client);
  }

  /** The Spring Cloud service id whose instances serve the RPCX service {@code service}. */
  String serviceId(String service) {
    return serviceIds.getOrDefault(service, service);
  }

  /**
   * Follows the instances of {@code service}'s service id: the first lookup is made before this
   * returns, and its list given to {@code listener}.
   */
  @Override
  public Subscription subscribe(String service, Listener listener) {
    Objects.requireNonNull(listener, "listener");
    String serviceId = serviceId(service);
    Watch watch;
    boolean started;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the Spring Cloud discovery is closed");
      }
      watch = watches.get(serviceId);
      started = watch != null;
      if (!started) {
        watch = new Watch(serviceId);
        watches.put(serviceId, watch);
      }
      watch.subscriptions++;
    }
    watch.add(listener, !started);
    Watch subscribed = watch;
    java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);
    return new Subscription() {
      @Override
      public void refresh() {
        subscribed.soon();
      }

      @Override
      public void close() {
        if (!open.compareAndSet(true, false)) {
          return;
        }
        subscribed.listeners.remove(listener);
        boolean last;
        synchronized (SpringCloudDiscovery.this) {
          // Counted, not read from the listeners: a subscribe may hold it, not yet listening.
          last = --subscribed.subscriptions == 0;
          if (last) {
            watches.remove(serviceId, subscribed);
          }
        }
        if (last) {
          subscribed.close();
        }
      }
    };
  }

  /** The registry's catalog changed (a Spring Cloud {@code HeartbeatEvent}): look again now. */
  public void catalogChanged() {
    List<Watch> open;
    synchronized (this) {
      open = List.copyOf(watches.values());
    }
    open.forEach(Watch::soon);
  }

  @Override
  public String describe() {
    DiscoveryClient found = client.get();
    return "Spring Cloud discovery (" + (found == null ? "no DiscoveryClient" : found.description())
        + ")";
  }

  @Override
  public String describe(String service) {
    return describe() + " of service id '" + serviceId(service) + "'";
  }

  /** Stops every refresh. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      watches.clear();
    }
    scheduler.shutdownNow();
  }

  @Override
  public String toString() {
    return describe();
  }

  /** The instances of one service id, asked for on the discovery's thread. */
  private final class Watch {
    private final String serviceId;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** Subscriptions made and not closed; guarded by the discovery. */
    private int subscriptions;
    /**
     * Held while the registry is asked, which may take a while (an HTTP call to Consul, say):
     * scheduling takes the watch's own lock, so a network thread asking for a refresh never waits.
     */
    private final Object lookupLock = new Object();
    // Under lookupLock:
    private List<ServiceEndpoint> delivered;
    private String problem;
    private Set<String> reported = Set.of();
    // Under this watch's lock:
    private long lastLookupNanos;
    private java.util.concurrent.ScheduledFuture<?> next;
    private boolean closed;

    Watch(String serviceId) {
      this.serviceId = serviceId;
    }

    void add(Listener listener, boolean first) {
      listeners.add(listener);
      if (first) {
        lookUp(); // on the caller's thread: the first list before subscribe returns
        schedule(refreshMillis, TimeUnit.MILLISECONDS);
      } else {
        synchronized (lookupLock) {
          if (delivered != null) {
            listener.onEndpoints(delivered);
          }
          if (problem != null) {
            listener.onProblem(problem);
          }
        }
      }
    }

    synchronized void close() {
      closed = true;
      if (next != null) {
        next.cancel(false);
      }
    }

    /** Looks again soon: now, or a second after the last lookup. */
    synchronized void soon() {
      if (closed) {
        return;
      }
      long wait = lastLookupNanos + MIN_INTERVAL_NANOS - System.nanoTime();
      schedule(Math.max(0, wait), TimeUnit.NANOSECONDS);
    }

    private synchronized void schedule(long delay, TimeUnit unit) {
      if (closed) {
        return;
      }
      if (next != null && next.getDelay(unit) <= delay) {
        return; // one is due sooner
      }
      if (next != null) {
        next.cancel(false);
      }
      try {
        next =
            scheduler.schedule(
                () -> {
                  lookUp();
                  schedule(refreshMillis, TimeUnit.MILLISECONDS);
                },
                delay,
                unit);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        closed = true; // the discovery is closing
      }
    }

    private void lookUp() {
      synchronized (this) {
        if (closed) {
          return;
        }
        next = null;
        lastLookupNanos = System.nanoTime();
      }
      synchronized (lookupLock) {
        lookUpLocked();
      }
    }

    private void lookUpLocked() {
      DiscoveryClient discovery = client.get();
      List<ServiceInstance> instances;
      try {
        if (discovery == null) {
          throw new IllegalStateException("there is no Spring Cloud DiscoveryClient");
        }
        instances = discovery.getInstances(serviceId);
      } catch (RuntimeException e) {
        report(describe() + " failed to list the instances of service id '" + serviceId + "': " + e);
        return;
      }
      List<ServiceEndpoint> endpoints = new ArrayList<>();
      Set<String> skipped = new HashSet<>();
      List<ServiceInstance> sorted = new ArrayList<>(instances == null ? List.of() : instances);
      sorted.sort(Comparator.comparing(instance -> instance.getHost() + ":" + instance.getPort()));
      for (ServiceInstance instance : sorted) {
        try {
          endpoints.add(endpoint(instance));
        } catch (IllegalArgumentException e) {
          skipped.add(
              "Skipping instance " + instance.getInstanceId() + " of service id '" + serviceId
                  + "' (" + instance.getHost() + ":" + instance.getPort() + "): " + e.getMessage());
        }
      }
      for (String skip : skipped) {
        if (!reported.contains(skip)) {
          logger.warn(skip);
        }
      }
      reported = skipped;
      if (endpoints.isEmpty()) {
        report(
            describe() + " lists no instance of service id '" + serviceId + "'"
                + (sorted.isEmpty() ? "" : " with the metadata " + PORT_KEY + " (its RPCX port)"));
        return;
      }
      if (problem != null) {
        logger.info("{} lists the instances of service id '{}' again", describe(), serviceId);
        problem = null;
      }
      if (!endpoints.equals(delivered)) {
        delivered = List.copyOf(endpoints);
        for (Listener listener : listeners) {
          try {
            listener.onEndpoints(delivered);
          } catch (RuntimeException e) {
            logger.error("A listener of service id '{}' failed on {}", serviceId, delivered, e);
          }
        }
      }
    }

    private void report(String found) {
      if (found.equals(problem)) {
        return;
      }
      problem = found;
      logger.warn(
          "{}{}",
          found,
          delivered == null ? "" : "; keeping the " + delivered.size() + " servers known");
      for (Listener listener : listeners) {
        listener.onProblem(found);
      }
    }
  }

  /** The RPCX endpoint an instance publishes. */
  static ServiceEndpoint endpoint(ServiceInstance instance) {
    Map<String, String> metadata =
        instance.getMetadata() == null ? Map.of() : instance.getMetadata();
    String port = metadata.get(PORT_KEY);
    if (port == null) {
      port = metadata.get(KUBERNETES_PORT_KEY);
    }
    if (port == null) {
      throw new IllegalArgumentException(
          "no metadata " + PORT_KEY + " (the port of its RPCX server; a server with"
              + " rpcx-spring-cloud registers it)");
    }
    int number;
    try {
      number = Integer.parseInt(port.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "metadata " + PORT_KEY + ": '" + port + "' (expected: 1-65535)");
    }
    Map<String, String> carried = new LinkedHashMap<>();
    String zone = metadata.get(ServiceEndpoint.ZONE);
    if (zone != null && !zone.isBlank()) {
      carried.put(ServiceEndpoint.ZONE, zone);
    }
    if (instance.getInstanceId() != null && !instance.getInstanceId().isBlank()) {
      carried.put("instance", instance.getInstanceId());
    }
    return ServiceEndpoint.of(instance.getHost(), number, carried);
  }

  /** Configures a {@link SpringCloudDiscovery}; not thread-safe. */
  public static final class Builder {
    private final Supplier<DiscoveryClient> client;
    private final Map<String, String> serviceIds = new LinkedHashMap<>();
    private Duration refreshInterval = Duration.ofSeconds(5);

    private Builder(Supplier<DiscoveryClient> client) {
      this.client = client;
    }

    /** The Spring Cloud service id of the RPCX service {@code service}; by default its name. */
    public Builder service(String service, String serviceId) {
      Objects.requireNonNull(service, "service");
      Objects.requireNonNull(serviceId, "serviceId");
      if (serviceId.isBlank()) {
        throw new IllegalArgumentException("serviceId of '" + service + "' is blank");
      }
      serviceIds.put(service, serviceId);
      return this;
    }

    /** How often each service id is asked again; default 5 s. */
    public Builder refreshInterval(Duration interval) {
      Objects.requireNonNull(interval, "refreshInterval");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("refreshInterval: " + interval + " (expected: > 0)");
      }
      this.refreshInterval = interval;
      return this;
    }

    /** The discovery; it asks nothing until a client subscribes. */
    public SpringCloudDiscovery build() {
      return new SpringCloudDiscovery(this);
    }
  }
}
