package io.rpcx.client;

import io.rpcx.client.internal.transport.dns.DnsResolvers;
import io.rpcx.client.internal.transport.dns.DnsTarget;
import io.rpcx.client.internal.transport.dns.DnsWatch;
import io.rpcx.core.discovery.ServiceDiscovery;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Finds the servers of each service in DNS: every A and AAAA record of a name (a Kubernetes
 * headless Service, any DNS-published pool), on the port the target gives, or the SRV records of
 * a name, each a host and a port. Needs nothing but a name server: no Kubernetes API access, no
 * registry.
 *
 * <pre>{@code
 * DnsDiscovery dns = DnsDiscovery.of("dns:///orders.shop.svc.cluster.local:9000");
 * RpcxClient client = RpcxClient.builder().discovery(dns).build();
 *
 * DnsDiscovery perService = DnsDiscovery.builder()
 *     .service("orders", "dns:///orders.shop.svc.cluster.local:9000")       // A/AAAA
 *     .service("users", "dns:///_rpcx._tcp.users.shop.svc.cluster.local")   // SRV
 *     .build();
 * }</pre>
 *
 * <p>Targets: {@code dns:///name:port} (A and AAAA records, every server on {@code port}), {@code
 * dns:///name} (SRV records: the lowest priority's targets and ports; weights are not used), and
 * either with a name server of its own, {@code dns://10.0.0.10:53/name:port}; others ask {@link
 * Builder#nameServer}, by default the system's ({@code /etc/resolv.conf}).
 *
 * <p>When it looks again: when the records' TTL runs out, at the latest after the refresh
 * interval (default 30 s), and at once when a client loses a connection to one of the servers
 * (it stopped, or told the client to go away), never twice within the minimum interval (default
 * 1 s). A failed lookup, or an answer with no record, keeps the last good list: the problem is
 * logged once, named in the calls that find no server, and the lookup is tried again.
 *
 * <p>Thread-safe; one lookup loop per target, shared by every service and client that use it.
 * {@link #close()} stops the lookups and its thread ({@code rpcx-dns}).
 */
public final class DnsDiscovery implements ServiceDiscovery, AutoCloseable {
  private final Map<String, DnsTarget> services;
  private final DnsTarget everyService;
  private final long initialListTimeoutMillis;
  private final DnsResolvers resolvers;
  /** The watches open, by target; guarded by {@code this}. */
  private final Map<DnsTarget, DnsWatch> watches = new HashMap<>();
  /** The subscriptions of each watch, counted when made: guarded by {@code this}. */
  private final Map<DnsWatch, Integer> subscriptions = new HashMap<>();
  private boolean closed;

  private DnsDiscovery(Builder builder) {
    this.services = Map.copyOf(builder.services);
    this.everyService = builder.everyService;
    this.initialListTimeoutMillis = builder.initialListTimeout.toMillis();
    this.resolvers =
        new DnsResolvers(
            builder.nameServers,
            builder.queryTimeout.toMillis(),
            builder.refreshInterval.toMillis(),
            builder.minRefreshInterval.toMillis());
  }

  /**
   * The servers of every service at {@code target}, such as {@code
   * dns:///orders.shop.svc.cluster.local:9000}.
   *
   * @throws IllegalArgumentException if the target is not of a form above
   */
  public static DnsDiscovery of(String target) {
    return builder().everyService(target).build();
  }

  /** A builder of a DNS discovery. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Looks up the target of {@code service}. Waits up to the initial list timeout (default 5 s)
   * for the first answer, which {@code listener} gets before this returns.
   */
  @Override
  public Subscription subscribe(String service, Listener listener) {
    Objects.requireNonNull(listener, "listener");
    DnsTarget target = target(service);
    if (target == null) {
      listener.onProblem(
          "no DNS target is configured for it (DnsDiscovery.Builder.service or everyService)");
      return () -> {};
    }
    DnsWatch watch;
    boolean started;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the DNS discovery is closed");
      }
      watch = watches.get(target);
      started = watch != null;
      if (!started) {
        watch = resolvers.watch(target);
        watches.put(target, watch);
      }
      subscriptions.merge(watch, 1, Integer::sum);
    }
    if (!started) {
      watch.start();
    }
    watch.awaitFirstLookup(initialListTimeoutMillis);
    watch.add(listener);
    DnsWatch subscribed = watch;
    AtomicBoolean open = new AtomicBoolean(true);
    return new Subscription() {
      @Override
      public void refresh() {
        subscribed.refresh();
      }

      @Override
      public void close() {
        if (open.compareAndSet(true, false)) {
          unsubscribe(target, subscribed, listener);
        }
      }
    };
  }

  private void unsubscribe(DnsTarget target, DnsWatch watch, Listener listener) {
    watch.remove(listener);
    boolean last;
    synchronized (this) {
      // Counted, not read from the listeners: a subscribe may hold the watch, not yet listening.
      last = subscriptions.merge(watch, -1, Integer::sum) == 0;
      if (last) {
        subscriptions.remove(watch);
        watches.remove(target, watch);
      }
    }
    if (last) {
      watch.close();
    }
  }

  private DnsTarget target(String service) {
    return services.getOrDefault(service, everyService);
  }

  @Override
  public String describe() {
    return "DNS at " + resolvers.describeNameServers();
  }

  @Override
  public String describe(String service) {
    DnsTarget target = target(service);
    return target == null ? describe() : "DNS " + target.describe();
  }

  /** Stops every lookup and the discovery's thread. */
  @Override
  public void close() {
    List<DnsWatch> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = new ArrayList<>(watches.values());
      watches.clear();
    }
    open.forEach(DnsWatch::close);
    resolvers.close();
  }

  @Override
  public String toString() {
    return describe();
  }

  /** Configures a {@link DnsDiscovery}; not thread-safe. */
  public static final class Builder {
    private final Map<String, DnsTarget> services = new LinkedHashMap<>();
    private DnsTarget everyService;
    private final List<InetSocketAddress> nameServers = new ArrayList<>();
    private Duration refreshInterval = Duration.ofSeconds(30);
    private Duration minRefreshInterval = Duration.ofSeconds(1);
    private Duration queryTimeout = Duration.ofSeconds(5);
    private Duration initialListTimeout = Duration.ofSeconds(5);

    private Builder() {}

    /** Where the servers of {@code service} are: a {@code dns:} target. */
    public Builder service(String service, String target) {
      Objects.requireNonNull(service, "service");
      services.put(service, DnsTarget.parse(target));
      return this;
    }

    /** Where the servers of every service not named with {@link #service} are. */
    public Builder everyService(String target) {
      this.everyService = DnsTarget.parse(target);
      return this;
    }

    /**
     * A name server to ask (several are asked in turn), for targets that name none; by default
     * the system's.
     */
    public Builder nameServer(String host, int port) {
      Objects.requireNonNull(host, "host");
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("port: " + port + " (expected: 1-65535)");
      }
      nameServers.add(InetSocketAddress.createUnresolved(host, port));
      return this;
    }

    /** The longest time between two lookups of a target, whatever the TTL; default 30 s. */
    public Builder refreshInterval(Duration interval) {
      this.refreshInterval = positive(interval, "refreshInterval");
      return this;
    }

    /**
     * The shortest time between two lookups of a target, however short the TTL and however many
     * connections fail; default 1 s.
     */
    public Builder minRefreshInterval(Duration interval) {
      this.minRefreshInterval = positive(interval, "minRefreshInterval");
      return this;
    }

    /** How long a name server may take to answer; default 5 s. */
    public Builder queryTimeout(Duration timeout) {
      this.queryTimeout = positive(timeout, "queryTimeout");
      return this;
    }

    /** How long {@code subscribe} waits for the first answer; default 5 s. */
    public Builder initialListTimeout(Duration timeout) {
      this.initialListTimeout = positive(timeout, "initialListTimeout");
      return this;
    }

    private static Duration positive(Duration duration, String name) {
      Objects.requireNonNull(duration, name);
      if (duration.isNegative() || duration.isZero() || duration.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(name + ": " + duration + " (expected: > 0)");
      }
      return duration;
    }

    /** The discovery; it looks nothing up until a client subscribes. */
    public DnsDiscovery build() {
      if (everyService == null && services.isEmpty()) {
        throw new IllegalArgumentException("no DNS target: call everyService(...) or service(...)");
      }
      if (minRefreshInterval.compareTo(refreshInterval) > 0) {
        throw new IllegalArgumentException(
            "minRefreshInterval: " + minRefreshInterval + " (expected: <= refreshInterval "
                + refreshInterval + ")");
      }
      return new DnsDiscovery(this);
    }
  }
}
