package io.rpcx.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.rpcx.core.discovery.ServiceDiscovery;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the servers of each RPCX service among the ready pods of a Kubernetes Service, by watching
 * the Service's EndpointSlices through the Kubernetes API (fabric8 Kubernetes client). Kubernetes
 * is the registry: servers register nothing, a pod is listed once its readiness probe passes.
 *
 * <pre>{@code
 * KubernetesDiscovery kubernetes = KubernetesDiscovery.builder()
 *     .everyService("orders-server")        // the Kubernetes Service of every RPCX service
 *     .portName("rpcx")                     // its port the RPCX server listens on
 *     .build();                             // namespace and credentials: the pod's own
 * RpcxClient client = RpcxClient.builder().discovery(kubernetes).build();
 * }</pre>
 *
 * <p>What a client sees: a pod that becomes ready takes calls at once; one that stops being ready
 * or starts terminating gets no new call, and the calls it has in flight finish (its connection
 * drains); a pod replaced at the same address (a new uid) is a new server. Each server carries
 * its zone ({@code ServiceEndpoint.zone()}), its node and its pod as metadata. While the API
 * server is unreachable, or refuses the credentials, clients keep the servers they know, the
 * problem is logged once, naming what to check, and the watch is resumed with backoff.
 *
 * <p>Needs only {@code get}, {@code list} and {@code watch} on {@code endpointslices} (API group
 * {@code discovery.k8s.io}) in the namespace: docs/CLUSTER.md has the Role. The Services of RPCX
 * servers are best headless ({@code clusterIP: None}): the client balances itself.
 *
 * <p>Thread-safe; one watch per Kubernetes Service however many RPCX services it serves and
 * clients use it. {@link #close()} stops the watches (and closes the Kubernetes client if this
 * discovery made it).
 */
public final class KubernetesDiscovery implements ServiceDiscovery, AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(KubernetesDiscovery.class);
  /** A Service name, a namespace, a port name: DNS labels as Kubernetes checks them. */
  private static final long WATCHDOG_PERIOD_MILLIS = 2_000;
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  private final KubernetesClient client;
  private final boolean ownsClient;
  private final String namespace;
  private final String portName;
  private final Map<String, String> services;
  private final String everyService;
  private final Duration initialListTimeout;
  /** The watches open, by Kubernetes Service name; guarded by {@code this}. */
  private final Map<String, SliceWatch> watches = new HashMap<>();
  /** The subscriptions of each watch, counted when made: guarded by {@code this}. */
  private final Map<SliceWatch, Integer> subscriptions = new HashMap<>();
  /** Checks the watches every 2 s: one daemon thread, started with the first watch. */
  private ScheduledExecutorService watchdog;
  private boolean closed;

  private KubernetesDiscovery(Builder builder) {
    this.ownsClient = builder.client == null;
    this.client = ownsClient ? new KubernetesClientBuilder().build() : builder.client;
    String configured = builder.namespace != null ? builder.namespace : client.getNamespace();
    this.namespace = configured != null ? configured : "default";
    this.portName = builder.portName;
    this.services = Map.copyOf(builder.services);
    this.everyService = builder.everyService;
    this.initialListTimeout = builder.initialListTimeout;
  }

  /** A builder of a Kubernetes discovery. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Follows the Kubernetes Service of {@code service}. Waits up to the initial list timeout
   * (default 5 s) for the first list, which {@code listener} gets before this returns; if there is
   * none by then, or no Kubernetes Service is configured for {@code service}, the listener is told
   * the problem and calls fail with it until there is a list.
   */
  @Override
  public Subscription subscribe(String service, Listener listener) {
    Objects.requireNonNull(listener, "listener");
    String kubernetesService = kubernetesService(service);
    if (kubernetesService == null) {
      listener.onProblem(
          "no Kubernetes Service is configured for it (KubernetesDiscovery.Builder.service or"
              + " everyService)");
      return () -> {};
    }
    SliceWatch watch;
    boolean started;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the Kubernetes discovery is closed");
      }
      watch = watches.get(kubernetesService);
      started = watch != null;
      if (!started) {
        watch = new SliceWatch(client, namespace, kubernetesService, portName);
        watches.put(kubernetesService, watch);
        if (watchdog == null) {
          watchdog = startWatchdog();
        }
      }
      subscriptions.merge(watch, 1, Integer::sum);
    }
    if (!started) {
      watch.start();
    }
    watch.awaitFirstList(initialListTimeout);
    watch.add(listener);
    SliceWatch subscribed = watch;
    AtomicBoolean open = new AtomicBoolean(true);
    return () -> {
      if (open.compareAndSet(true, false)) {
        unsubscribe(kubernetesService, subscribed, listener);
      }
    };
  }

  private ScheduledExecutorService startWatchdog() {
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "rpcx-kubernetes-watchdog");
              thread.setDaemon(true);
              return thread;
            });
    scheduler.scheduleWithFixedDelay(
        () -> {
          List<SliceWatch> open;
          synchronized (this) {
            open = List.copyOf(watches.values());
          }
          for (SliceWatch watch : open) {
            try {
              watch.check();
            } catch (RuntimeException e) {
              logger.warn("Checking the {} failed", watch, e);
            }
          }
        },
        WATCHDOG_PERIOD_MILLIS,
        WATCHDOG_PERIOD_MILLIS,
        TimeUnit.MILLISECONDS);
    return scheduler;
  }

  private void unsubscribe(String kubernetesService, SliceWatch watch, Listener listener) {
    watch.remove(listener);
    boolean last;
    synchronized (this) {
      // Counted, not read from the listeners: a subscribe may hold the watch, not yet listening.
      last = subscriptions.merge(watch, -1, Integer::sum) == 0;
      if (last) {
        subscriptions.remove(watch);
        watches.remove(kubernetesService, watch);
      }
    }
    if (last) {
      watch.close();
    }
  }

  private String kubernetesService(String service) {
    return services.getOrDefault(service, everyService);
  }

  @Override
  public String describe() {
    return "Kubernetes EndpointSlices in namespace " + namespace;
  }

  @Override
  public String describe(String service) {
    String kubernetesService = kubernetesService(service);
    if (kubernetesService == null) {
      return describe();
    }
    return "Kubernetes EndpointSlices of Service " + namespace + "/" + kubernetesService
        + (portName == null ? "" : " (port '" + portName + "')");
  }

  /** Stops every watch, and closes the Kubernetes client if this discovery made it. */
  @Override
  public void close() {
    List<SliceWatch> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = List.copyOf(watches.values());
      watches.clear();
      if (watchdog != null) {
        watchdog.shutdownNow();
      }
    }
    for (SliceWatch watch : open) {
      try {
        watch.close();
      } catch (RuntimeException e) {
        logger.warn("Closing the {} failed", watch, e);
      }
    }
    if (ownsClient) {
      client.close();
    }
  }

  @Override
  public String toString() {
    return describe();
  }

  /** Configures a {@link KubernetesDiscovery}; not thread-safe. */
  public static final class Builder {
    private KubernetesClient client;
    private String namespace;
    private String portName;
    private final Map<String, String> services = new LinkedHashMap<>();
    private String everyService;
    private Duration initialListTimeout = Duration.ofSeconds(5);

    private Builder() {}

    /**
     * Uses this Kubernetes client of the application, which {@link #close()} leaves open. By
     * default the discovery makes its own, configured as fabric8 configures one: in a pod, from
     * its service account; elsewhere, from {@code ~/.kube/config}.
     */
    public Builder client(KubernetesClient client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /** The namespace of the Services; default the client's (in a pod: the pod's own). */
    public Builder namespace(String namespace) {
      this.namespace = dnsLabel(namespace, "namespace");
      return this;
    }

    /**
     * The name of the Service port the RPCX servers listen on, such as {@code rpcx}. By default the
     * Service's only port (a Service with several fails with the names it has).
     */
    public Builder portName(String portName) {
      this.portName = dnsLabel(portName, "portName");
      return this;
    }

    /** The Kubernetes Service whose pods serve the RPCX service {@code service}. */
    public Builder service(String service, String kubernetesService) {
      Objects.requireNonNull(service, "service");
      services.put(service, dnsLabel(kubernetesService, "kubernetesService"));
      return this;
    }

    /** The Kubernetes Service whose pods serve every RPCX service not named with {@link #service}. */
    public Builder everyService(String kubernetesService) {
      this.everyService = dnsLabel(kubernetesService, "kubernetesService");
      return this;
    }

    /** How long {@code subscribe} waits for the first list of servers; default 5 s. */
    public Builder initialListTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "initialListTimeout");
      if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "initialListTimeout: " + timeout + " (expected: > 0)");
      }
      this.initialListTimeout = timeout;
      return this;
    }

    private static String dnsLabel(String value, String name) {
      Objects.requireNonNull(value, name);
      if (!DNS_LABEL.matcher(value).matches()) {
        throw new IllegalArgumentException(
            name + ": '" + SliceReader.printable(value) + "' (expected: a DNS label of at most 63"
                + " characters a-z 0-9 -, as Kubernetes names are)");
      }
      return value;
    }

    /** The discovery; it watches nothing until a client subscribes. */
    public KubernetesDiscovery build() {
      if (everyService == null && services.isEmpty()) {
        throw new IllegalArgumentException(
            "no Kubernetes Service: call everyService(...) or service(...)");
      }
      return new KubernetesDiscovery(this);
    }
  }
}
