package io.rpcx.client.internal.config;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.LoadBalancing;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.internal.config.Checks;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.config.TypeScan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Everything a client was configured with, checked once and immutable: what {@code
 * RpcxClient.Builder} builds and the client's parts read. The builder writes into a {@link
 * Builder}, whose setters check their values.
 */
public final class ClientConfig {
  /** Timeout of calls whose method and interface set none: 5 seconds. */
  public static final long DEFAULT_TIMEOUT_MILLIS = 5_000;

  private final ConnectionSettings connection;
  private final List<ServiceEndpoint> defaultTarget;
  private final Map<Class<?>, List<ServiceEndpoint>> targets;
  private final ServiceDiscovery discovery;
  private final LoadBalancing loadBalancing;
  /** The zone the client runs in, or {@code null}. */
  private final String zone;
  private final Map<Class<?>, LoadBalancing> loadBalancingByInterface;
  private final int maxAttempts;
  private final double retryRatio;
  private final int minRetriesPerSecond;
  private final Ejection ejection;
  private final List<Class<?>> interfaces;
  private final long defaultTimeoutMillis;
  private final Duration connectTimeout;
  private final Executor callbackExecutor;
  private final Duration keepAliveInterval;
  private final Duration keepAliveTimeout;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Map<String, String> metadata;
  private final List<ClientInterceptor> interceptors;

  private ClientConfig(Builder builder, List<Class<?>> interfaces) {
    this.connection = builder.connection.build();
    this.defaultTarget =
        builder.inProcessName != null
            // The server's name stands for its address; the port is never used.
            ? List.of(ServiceEndpoint.of(builder.inProcessName, 1))
            : builder.defaultTarget;
    this.targets = Map.copyOf(builder.targets);
    this.discovery = builder.discovery;
    this.loadBalancing = builder.loadBalancing;
    this.zone = builder.zone;
    this.loadBalancingByInterface = Map.copyOf(builder.loadBalancingByInterface);
    this.maxAttempts = builder.maxAttempts;
    this.retryRatio = builder.retryRatio;
    this.minRetriesPerSecond = builder.minRetriesPerSecond;
    this.ejection = builder.ejection;
    this.interfaces = List.copyOf(interfaces);
    this.defaultTimeoutMillis = builder.defaultTimeoutMillis;
    this.connectTimeout = builder.connectTimeout;
    this.callbackExecutor = builder.callbackExecutor;
    this.keepAliveInterval = builder.keepAliveInterval;
    this.keepAliveTimeout = builder.keepAliveTimeout;
    this.initialBackoff = builder.initialBackoff;
    this.maxBackoff = builder.maxBackoff;
    this.metadata = Map.copyOf(builder.metadata);
    this.interceptors = List.copyOf(builder.interceptors);
  }

  public static Builder builder() {
    return new Builder();
  }

  public ConnectionSettings connection() {
    return connection;
  }

  /** The servers of every interface without targets of its own, or {@code null}. */
  public List<ServiceEndpoint> defaultTarget() {
    return defaultTarget;
  }

  /** The servers of each interface given its own. */
  public Map<Class<?>, List<ServiceEndpoint>> targets() {
    return targets;
  }

  /** Where the servers of the other interfaces come from, or {@code null}. */
  public ServiceDiscovery discovery() {
    return discovery;
  }

  /** The strategy of services called without an interface. */
  public LoadBalancing loadBalancing() {
    return loadBalancing;
  }

  /** The zone the client runs in, whose servers balancers prefer; {@code null}: none. */
  public String zone() {
    return zone;
  }

  public LoadBalancing loadBalancing(Class<?> serviceInterface) {
    return loadBalancingByInterface.getOrDefault(serviceInterface, loadBalancing);
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  public double retryRatio() {
    return retryRatio;
  }

  public int minRetriesPerSecond() {
    return minRetriesPerSecond;
  }

  public Ejection ejection() {
    return ejection;
  }

  /** The interfaces registered or found by scanning, checked when the client is built. */
  public List<Class<?>> interfaces() {
    return interfaces;
  }

  public long defaultTimeoutMillis() {
    return defaultTimeoutMillis;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** The executor asynchronous calls complete on, or {@code null} for the client's own. */
  public Executor callbackExecutor() {
    return callbackExecutor;
  }

  public Duration keepAliveInterval() {
    return keepAliveInterval;
  }

  public Duration keepAliveTimeout() {
    return keepAliveTimeout;
  }

  public Duration initialBackoff() {
    return initialBackoff;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  /** Metadata sent with every call. */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** The client interceptors, in the order they run. */
  public List<ClientInterceptor> interceptors() {
    return interceptors;
  }

  /** A configuration being built; every setter checks its value. Not thread-safe. */
  public static final class Builder {
    private final ConnectionSettings.Builder connection = ConnectionSettings.builder();
    private List<ServiceEndpoint> defaultTarget;
    private final Map<Class<?>, List<ServiceEndpoint>> targets = new LinkedHashMap<>();
    private ServiceDiscovery discovery;
    private LoadBalancing loadBalancing = LoadBalancing.LEAST_IN_FLIGHT;
    private String zone;
    private final Map<Class<?>, LoadBalancing> loadBalancingByInterface = new LinkedHashMap<>();
    private int maxAttempts = 3;
    private double retryRatio = 0.2;
    private int minRetriesPerSecond = 10;
    private Ejection ejection = new Ejection(5, 1_000, 30_000);
    private final List<Class<?>> interfaces = new ArrayList<>();
    private TypeScan scan = TypeScan.none();
    private long defaultTimeoutMillis = DEFAULT_TIMEOUT_MILLIS;
    private Duration connectTimeout = Duration.ofSeconds(3);
    private Executor callbackExecutor;
    private Duration keepAliveInterval = Duration.ofSeconds(30);
    private Duration keepAliveTimeout = Duration.ofSeconds(10);
    private Duration initialBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofSeconds(120);
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private final List<ClientInterceptor> interceptors = new ArrayList<>();
    private String inProcessName;

    private Builder() {}

    /** The settings client and server share (threads, transport, TLS, limits). */
    public ConnectionSettings.Builder connection() {
      return connection;
    }

    public void keepAlive(Duration interval, Duration timeout) {
      this.keepAliveInterval = Checks.positive(interval, "interval");
      this.keepAliveTimeout = Checks.positive(timeout, "timeout");
    }

    public void reconnectBackoff(Duration initial, Duration max) {
      Checks.positive(initial, "initial");
      Checks.positive(max, "max");
      if (max.compareTo(initial) < 0) {
        throw new IllegalArgumentException("max: " + max + " (expected: >= initial " + initial + ")");
      }
      this.initialBackoff = initial;
      this.maxBackoff = max;
    }

    /** Calls go to the in-process server named {@code name}, never over the network. */
    public void inProcess(String name) {
      connection.inProcess(name);
      this.inProcessName = name;
    }

    public void tls(TlsConfig tls) {
      Objects.requireNonNull(tls, "tls");
      if (tls.isServer()) {
        throw new IllegalArgumentException("tls: a server configuration (expected: TlsConfig.client())");
      }
      connection.tls(tls);
    }

    public void metadata(String key, String value) {
      Checks.metadataKey(key);
      metadata.put(key, Objects.requireNonNull(value, "value"));
    }

    public void intercept(ClientInterceptor interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
    }

    public void defaultTarget(String host, int port) {
      Objects.requireNonNull(host, "host");
      this.defaultTarget = List.of(ServiceEndpoint.of(host.strip(), port));
    }

    public void targets(Class<?> serviceInterface, List<ServiceEndpoint> endpoints) {
      Objects.requireNonNull(serviceInterface, "serviceInterface");
      if (endpoints.isEmpty()) {
        throw new IllegalArgumentException(
            "targets of " + serviceInterface.getName() + ": none (expected: at least one)");
      }
      targets.put(serviceInterface, List.copyOf(endpoints));
    }

    public void discovery(ServiceDiscovery discovery) {
      this.discovery = Objects.requireNonNull(discovery, "discovery");
    }

    public void zone(String zone) {
      Objects.requireNonNull(zone, "zone");
      io.rpcx.core.discovery.ServiceEndpoint.of("h", 1, java.util.Map.of("zone", zone)); // checks it
      this.zone = zone;
    }

    public void loadBalancing(LoadBalancing strategy) {
      this.loadBalancing = Objects.requireNonNull(strategy, "strategy");
    }

    public void loadBalancing(Class<?> serviceInterface, LoadBalancing strategy) {
      loadBalancingByInterface.put(
          Objects.requireNonNull(serviceInterface, "serviceInterface"),
          Objects.requireNonNull(strategy, "strategy"));
    }

    public void maxAttempts(int maxAttempts) {
      this.maxAttempts = Checks.atLeast(maxAttempts, 1, "maxAttempts");
    }

    public void retryBudget(double ratio, int minPerSecond) {
      if (!(ratio >= 0) || ratio > 1000) {
        throw new IllegalArgumentException("ratio: " + ratio + " (expected: 0-1000)");
      }
      this.minRetriesPerSecond = Checks.atLeast(minPerSecond, 0, "minPerSecond");
      this.retryRatio = ratio;
    }

    public void ejection(int consecutiveFailures, Duration initial, Duration max) {
      Checks.positive(initial, "initial");
      Checks.positive(max, "max");
      this.ejection = new Ejection(consecutiveFailures, initial.toMillis(), max.toMillis());
    }

    public void defaultTimeout(Duration timeout) {
      this.defaultTimeoutMillis = Math.max(1, Checks.positive(timeout, "defaultTimeout").toMillis());
    }

    public void connectTimeout(Duration timeout) {
      this.connectTimeout = Checks.positive(timeout, "connectTimeout");
    }

    public void register(Class<?> serviceInterface) {
      interfaces.add(Objects.requireNonNull(serviceInterface, "serviceInterface"));
    }

    public void scan(String... packages) {
      scan = scan.andPackages(packages);
    }

    public void classLoader(ClassLoader classLoader) {
      scan = scan.withClassLoader(classLoader);
    }

    public void callbackExecutor(Executor executor) {
      this.callbackExecutor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * The configuration, with the interfaces of the scanned packages found now.
     *
     * @throws IllegalArgumentException if the targets contradict each other
     */
    public ClientConfig build() {
      if (inProcessName != null) {
        if (defaultTarget != null || discovery != null || !targets.isEmpty()) {
          throw new IllegalArgumentException(
              "inProcess(\"" + inProcessName + "\") cannot be combined with target(...),"
                  + " targets(...) or discovery(...): an in-process client calls only the"
                  + " in-process server of that name");
        }
      }
      if (discovery != null && defaultTarget != null) {
        throw new IllegalArgumentException(
            "both target(host, port) and discovery(...) are set: choose one (targets of single"
                + " interfaces may be combined with discovery)");
      }
      List<Class<?>> all = new ArrayList<>(interfaces);
      for (String scanPackage : scan.packages()) {
        all.addAll(scan.find(scanPackage, RPCXClient.class));
      }
      return new ClientConfig(this, all);
    }
  }
}
