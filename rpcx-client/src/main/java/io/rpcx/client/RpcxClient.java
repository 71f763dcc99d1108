package io.rpcx.client;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.internal.call.ClientMethod;
import io.rpcx.client.internal.call.Completions;
import io.rpcx.client.internal.call.RetryBudget;
import io.rpcx.client.internal.call.RetryPolicy;
import io.rpcx.client.internal.cluster.Ejection;
import io.rpcx.client.internal.cluster.Member;
import io.rpcx.client.internal.cluster.Members;
import io.rpcx.client.internal.cluster.ServiceCluster;
import io.rpcx.client.internal.proxy.ServiceProxy;
import io.rpcx.client.internal.transport.ClientTransport;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.StaticDiscovery;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.model.ClassScanner;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.runtime.RuntimeCompatibility;
import io.rpcx.core.internal.transport.InboundBudget;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates proxies that call remote RPCX services through interfaces annotated {@link RPCXClient}.
 *
 * <pre>{@code
 * RpcxClient client = RpcxClient.builder()
 *     .target("orders.internal", 9000)         // overrides the address in @RPCXClient
 *     .defaultTimeout(Duration.ofSeconds(2))
 *     .build();
 * OrderService orders = client.create(OrderService.class);
 * OrderInfo order = orders.loadOrder(request);  // a remote call
 * ...
 * client.close();
 * }</pre>
 *
 * <p>A client is meant to be shared: it keeps one persistent connection per server address,
 * multiplexing every call of every proxy and thread over it, and its proxies are thread-safe.
 * Interfaces are checked when first used (or at {@link Builder#build()} when registered or
 * scanned): a mistake fails with a message naming the interface and method, never at call time.
 *
 * <p>A method returning a value blocks until the reply or its timeout. A method returning {@code
 * CompletableFuture<T>} returns at once; the future completes on the client's callback executor.
 * Timeouts: {@code @Method(timeoutMillis)}, else {@code @RPCXClient(timeoutMillis)}, else {@link
 * Builder#defaultTimeout(Duration)} (default {@value #DEFAULT_TIMEOUT_MILLIS} ms). Failures are
 * {@link io.rpcx.core.RpcxException}s.
 *
 * <p>{@link #close()} closes the connections; calls still pending fail as unavailable.
 */
public final class RpcxClient implements AutoCloseable {
  /** Timeout of calls whose method and interface set none: 5 seconds. */
  public static final long DEFAULT_TIMEOUT_MILLIS = 5_000;
  /** Default largest frame accepted or sent: 16 MiB. */
  public static final int DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024;

  private final Builder config;
  private final CodecRegistry codecs = StandardCodecs.registry();
  private final ClientTransport transport;
  private final Completions completions;
  private final ExecutorService ownedCallbacks;
  private final Members members;
  private final RetryPolicy retries;
  private final Map<Class<?>, ServiceModel> models = new ConcurrentHashMap<>();
  private final Map<Class<?>, Object> proxies = new ConcurrentHashMap<>();
  private final Map<Class<?>, ServiceCluster> clusters = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private RpcxClient(Builder config) {
    this.config = config;
    for (Class<?> type : config.interfaces) {
      models.put(type, ServiceModels.forClient(type, codecs));
    }
    for (Class<?> type : models.keySet()) {
      source(type, models.get(type));
    }
    ClientTransport.Options transportOptions = new ClientTransport.Options();
    transportOptions.allowNative = config.nativeTransport;
    transportOptions.ioThreads = config.ioThreads;
    transportOptions.connectTimeoutMillis =
        (int) Math.min(Integer.MAX_VALUE, config.connectTimeout.toMillis());
    transportOptions.maxFrameSize = config.maxFrameSize;
    transportOptions.maxConcurrentCalls = config.maxConcurrentCallsPerConnection;
    transportOptions.keepAliveIntervalMillis = config.keepAliveInterval.toMillis();
    transportOptions.keepAliveTimeoutMillis = config.keepAliveTimeout.toMillis();
    transportOptions.initialBackoffMillis = config.initialBackoff.toMillis();
    transportOptions.maxBackoffMillis = config.maxBackoff.toMillis();
    transportOptions.maxBufferedInboundBytes = config.maxBufferedInboundBytes;
    transportOptions.tls = config.tls;
    this.transport = new ClientTransport(transportOptions);
    this.members = new Members(transport::open, config.ejection, transport.scheduler());
    this.retries =
        new RetryPolicy(
            config.maxAttempts, new RetryBudget(config.retryRatio, config.minRetriesPerSecond));
    if (config.callbackExecutor != null) {
      this.ownedCallbacks = null;
      this.completions = new Completions(config.callbackExecutor);
    } else {
      this.ownedCallbacks = newCallbackPool();
      this.completions = new Completions(ownedCallbacks);
    }
  }

  /** A builder of a client. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A proxy calling the remote service behind {@code serviceInterface}. The same proxy is returned
   * for the same interface.
   *
   * @throws IllegalArgumentException if the interface is not a valid RPCX client interface, or no
   *     address is known for it
   * @throws IllegalStateException if the client is closed
   */
  public <T> T create(Class<T> serviceInterface) {
    Objects.requireNonNull(serviceInterface, "serviceInterface");
    if (closed) {
      throw new IllegalStateException("the client is closed");
    }
    Object proxy = proxies.computeIfAbsent(serviceInterface, this::newProxy);
    return serviceInterface.cast(proxy);
  }

  private Object newProxy(Class<?> type) {
    ServiceModel model = models.computeIfAbsent(type, t -> ServiceModels.forClient(t, codecs));
    ServiceCluster cluster = cluster(type, model);
    Map<Method, ClientMethod> methods = new HashMap<>();
    for (Map.Entry<Method, MethodModel> entry : model.methodsByJavaMethod().entrySet()) {
      MethodModel method = entry.getValue();
      long timeout = method.timeoutMillis() > 0 ? method.timeoutMillis() : config.defaultTimeoutMillis;
      methods.put(
          entry.getKey(),
          new ClientMethod(
              method, cluster, timeout, completions, config.maxNestingDepth, config.metadata,
              retries));
    }
    String prefix = "RPCX client of service '" + model.name() + "' (" + type.getName() + ") at ";
    return Proxy.newProxyInstance(
        type.getClassLoader(),
        new Class<?>[] {type},
        new ServiceProxy(methods, () -> prefix + cluster.address()));
  }

  /** The servers of an interface's service, watched from its source until the client closes. */
  private ServiceCluster cluster(Class<?> type, ServiceModel model) {
    return clusters.computeIfAbsent(
        type,
        key -> {
          ServiceDiscovery source = source(type, model);
          LoadBalancing strategy =
              config.loadBalancingByInterface.getOrDefault(type, config.loadBalancing);
          ServiceCluster cluster =
              new ServiceCluster(model.name(), source.describe(), strategy, members);
          cluster.subscribe(source);
          if (closed) {
            cluster.close(); // closed meanwhile: let go of the watch at once
            throw new IllegalStateException("the client is closed");
          }
          return cluster;
        });
  }

  /**
   * Where the servers of an interface come from: its own targets, else the client's discovery,
   * else the client's default target, else its annotation.
   */
  private ServiceDiscovery source(Class<?> type, ServiceModel model) {
    List<ServiceEndpoint> specific = config.targets.get(type);
    if (specific != null) {
      return StaticDiscovery.of(specific);
    }
    if (config.discovery != null) {
      return config.discovery;
    }
    if (config.defaultTarget != null) {
      return StaticDiscovery.of(config.defaultTarget);
    }
    RPCXClient annotation = type.getAnnotation(RPCXClient.class);
    if (annotation.address().isBlank() || annotation.port() <= 0) {
      throw new IllegalArgumentException(
          "no server address for " + type.getName() + " (service '" + model.name()
              + "'): set address and port in @RPCXClient, or call RpcxClient.Builder.target(...)"
              + " or discovery(...)");
    }
    if (annotation.port() > 65535) {
      throw new IllegalArgumentException(
          "@RPCXClient on " + type.getName() + " has port " + annotation.port()
              + " (expected: 1-65535)");
    }
    return StaticDiscovery.of(List.of(ServiceEndpoint.of(annotation.address().strip(), annotation.port())));
  }

  /**
   * The servers the calls of {@code serviceInterface} go to, and their state; empty if no proxy of
   * it was created yet.
   */
  public List<EndpointStatus> endpoints(Class<?> serviceInterface) {
    ServiceCluster cluster = clusters.get(serviceInterface);
    if (cluster == null) {
      return List.of();
    }
    long now = System.nanoTime();
    List<EndpointStatus> statuses = new ArrayList<>();
    for (Member member : cluster.members()) {
      statuses.add(
          new EndpointStatus(
              member.address(),
              member.state(now),
              member.inFlight(),
              member.callsStarted(),
              member.consecutiveFailures()));
    }
    return List.copyOf(statuses);
  }

  /** Calls sent and not yet answered, over all connections (a gauge for monitoring and tests). */
  public int callsInFlight() {
    return transport.callsInFlight();
  }

  /**
   * Closes every connection and stops the client's threads. Calls still pending fail with {@link
   * io.rpcx.core.UnavailableException}; proxies refuse new calls. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    transport.close(); // pending calls fail as "the client is closed", and are not retried
    for (ServiceCluster cluster : clusters.values()) {
      cluster.close();
    }
    if (ownedCallbacks != null) {
      ownedCallbacks.shutdown();
    }
  }

  /**
   * The default callback executor: a fork-join pool in FIFO mode with one thread per processor
   * (at least two), which adds threads for callbacks blocked in {@code CompletableFuture.join()}
   * or {@code get()} (up to {@value #MAX_CALLBACK_THREADS}), as the JDK's common pool does. A
   * pool that made a thread for each task when none was idle (as before) took hundreds of
   * milliseconds to make thousands of them when that many timeouts or replies came at once
   * (DeadlineTest).
   */
  private static ExecutorService newCallbackPool() {
    AtomicInteger count = new AtomicInteger();
    int parallelism = Math.max(2, Runtime.getRuntime().availableProcessors());
    return new ForkJoinPool(
        parallelism,
        pool -> {
          ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
          thread.setName("rpcx-client-callback-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        },
        null,
        true,
        0,
        MAX_CALLBACK_THREADS,
        1,
        saturated -> true, // past the limit a blocking join just blocks
        30,
        TimeUnit.SECONDS);
  }

  /** Most threads the default callback pool has, counting those added for blocked callbacks. */
  private static final int MAX_CALLBACK_THREADS = 256;

  /**
   * Configures and builds an {@link RpcxClient}. Not thread-safe; {@link #build()} copies the
   * configuration, so a builder can be reused.
   */
  public static final class Builder {
    private List<ServiceEndpoint> defaultTarget;
    private final Map<Class<?>, List<ServiceEndpoint>> targets = new LinkedHashMap<>();
    private ServiceDiscovery discovery;
    private LoadBalancing loadBalancing = LoadBalancing.LEAST_IN_FLIGHT;
    private final Map<Class<?>, LoadBalancing> loadBalancingByInterface = new LinkedHashMap<>();
    private int maxAttempts = 3;
    private double retryRatio = 0.2;
    private int minRetriesPerSecond = 10;
    private Ejection ejection = new Ejection(5, 1_000, 30_000);
    private final List<Class<?>> interfaces = new ArrayList<>();
    private final List<String> scanPackages = new ArrayList<>();
    private ClassLoader classLoader;
    private long defaultTimeoutMillis = DEFAULT_TIMEOUT_MILLIS;
    private Duration connectTimeout = Duration.ofSeconds(3);
    private int ioThreads = Runtime.getRuntime().availableProcessors();
    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE;
    private int maxConcurrentCallsPerConnection = 10_000;
    private int maxNestingDepth = DecodeContext.DEFAULT_MAX_DEPTH;
    private Executor callbackExecutor;
    private boolean nativeTransport = true;
    private Duration keepAliveInterval = Duration.ofSeconds(30);
    private Duration keepAliveTimeout = Duration.ofSeconds(10);
    private Duration initialBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofSeconds(120);
    private TlsConfig tls;
    private long maxBufferedInboundBytes = InboundBudget.defaultLimit();
    private final Map<String, String> metadata = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Pings a connection on which nothing arrived for {@code interval}, and closes it if nothing
     * arrives within {@code timeout} after the ping: a paused or unreachable server is detected
     * and its calls fail as unavailable. Default 30 s and 10 s.
     */
    public Builder keepAlive(Duration interval, Duration timeout) {
      this.keepAliveInterval = positive(interval, "interval");
      this.keepAliveTimeout = positive(timeout, "timeout");
      return this;
    }

    /**
     * Backoff between failed connection attempts to one server: {@code initial}, then 1.6 times
     * longer each time up to {@code max}, each randomized by ±20%. Calls made while waiting fail
     * at once as unavailable (safe to retry). Default 1 s up to 120 s.
     */
    public Builder reconnectBackoff(Duration initial, Duration max) {
      this.initialBackoff = positive(initial, "initial");
      this.maxBackoff = positive(max, "max");
      if (max.compareTo(initial) < 0) {
        throw new IllegalArgumentException("max: " + max + " (expected: >= initial " + initial + ")");
      }
      return this;
    }

    /**
     * Bytes the client may hold, over all connections, in replies still arriving and in replies
     * received and waiting to be decoded. A connection whose read would pass it stops being read
     * until there is room; while it stays full, the connection holding the largest incomplete
     * reply the longest is closed (its calls fail as resource exhausted). Default a quarter of the
     * JVM's maximum direct memory, at least 16 MiB.
     */
    public Builder maxBufferedInboundBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxBufferedInboundBytes: " + bytes + " (expected: >= 1)");
      }
      this.maxBufferedInboundBytes = bytes;
      return this;
    }

    /** Connects with TLS ({@link TlsConfig#client()}). */
    public Builder tls(TlsConfig tls) {
      Objects.requireNonNull(tls, "tls");
      if (tls.isServer()) {
        throw new IllegalArgumentException("tls: a server configuration (expected: TlsConfig.client())");
      }
      this.tls = tls;
      return this;
    }

    /**
     * Sends {@code value} as metadata {@code key} with every call; keys are lower-case ASCII. Use
     * {@link #bearerToken(String)} for credentials.
     */
    public Builder metadata(String key, String value) {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
      if (key.isEmpty() || !key.equals(key.toLowerCase(java.util.Locale.ROOT))) {
        throw new IllegalArgumentException("metadata key: '" + key + "' (expected: lower-case, not empty)");
      }
      metadata.put(key, value);
      return this;
    }

    /** Sends {@code token} as {@code authorization: Bearer <token>} with every call. */
    public Builder bearerToken(String token) {
      return metadata("authorization", "Bearer " + Objects.requireNonNull(token, "token"));
    }

    private static Duration positive(Duration duration, String name) {
      Objects.requireNonNull(duration, name);
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException(name + ": " + duration + " (expected: > 0)");
      }
      return duration;
    }

    /**
     * Sends the calls of every interface to {@code host:port}, whatever its annotation says (unless
     * the interface has its own targets). Not with {@link #discovery}.
     */
    public Builder target(String host, int port) {
      Objects.requireNonNull(host, "host");
      this.defaultTarget = List.of(ServiceEndpoint.of(host.strip(), port));
      return this;
    }

    /** Sends the calls of {@code serviceInterface} to {@code host:port}. */
    public Builder target(Class<?> serviceInterface, String host, int port) {
      Objects.requireNonNull(host, "host");
      return targets(serviceInterface, List.of(ServiceEndpoint.of(host.strip(), port)));
    }

    /**
     * Spreads the calls of {@code serviceInterface} over these servers, each {@code host:port}
     * (see {@link #loadBalancing(Class, LoadBalancing)}).
     */
    public Builder targets(Class<?> serviceInterface, String... endpoints) {
      List<ServiceEndpoint> parsed = new ArrayList<>();
      for (String endpoint : endpoints) {
        parsed.add(ServiceEndpoint.parse(endpoint));
      }
      return targets(serviceInterface, parsed);
    }

    /** Spreads the calls of {@code serviceInterface} over these servers. */
    public Builder targets(Class<?> serviceInterface, List<ServiceEndpoint> endpoints) {
      Objects.requireNonNull(serviceInterface, "serviceInterface");
      if (endpoints.isEmpty()) {
        throw new IllegalArgumentException(
            "targets of " + serviceInterface.getName() + ": none (expected: at least one)");
      }
      targets.put(serviceInterface, List.copyOf(endpoints));
      return this;
    }

    /**
     * Finds the servers of every service in {@code discovery} (ZooKeeper, for example) and follows
     * its changes; interfaces with their own {@link #targets} keep them. Creating a proxy waits
     * for the discovery's first list of the service.
     */
    public Builder discovery(ServiceDiscovery discovery) {
      this.discovery = Objects.requireNonNull(discovery, "discovery");
      return this;
    }

    /** How calls are spread over the servers of a service; default {@link LoadBalancing#LEAST_IN_FLIGHT}. */
    public Builder loadBalancing(LoadBalancing strategy) {
      this.loadBalancing = Objects.requireNonNull(strategy, "strategy");
      return this;
    }

    /** How the calls of {@code serviceInterface} are spread over its servers. */
    public Builder loadBalancing(Class<?> serviceInterface, LoadBalancing strategy) {
      loadBalancingByInterface.put(
          Objects.requireNonNull(serviceInterface, "serviceInterface"),
          Objects.requireNonNull(strategy, "strategy"));
      return this;
    }

    /**
     * Attempts per call, the first included; default 3. A call that certainly never reached a server
     * is sent again to another; one that may have reached it only if its method is {@link
     * io.rpcx.annotation.Idempotent}. All attempts share the call's timeout.
     */
    public Builder maxAttempts(int maxAttempts) {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("maxAttempts: " + maxAttempts + " (expected: >= 1)");
      }
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * Caps retries at {@code ratio} times the calls of the last 10 seconds, plus {@code
     * minPerSecond} per second; default 0.2 and 10 (Finagle's). Failing servers then see at most
     * 20% more calls, never a storm of retries.
     */
    public Builder retryBudget(double ratio, int minPerSecond) {
      if (!(ratio >= 0) || ratio > 1000) {
        throw new IllegalArgumentException("ratio: " + ratio + " (expected: 0-1000)");
      }
      if (minPerSecond < 0) {
        throw new IllegalArgumentException("minPerSecond: " + minPerSecond + " (expected: >= 0)");
      }
      this.retryRatio = ratio;
      this.minRetriesPerSecond = minPerSecond;
      return this;
    }

    /**
     * Takes a server out of rotation after {@code consecutiveFailures} calls in a row that could not
     * reach it or timed out, for {@code initial} growing 1.6 times per ejection in a row up to {@code
     * max}, each ±20%; then it takes one call at a time until one is answered. Default 5, 1 s, 30 s.
     */
    public Builder ejection(int consecutiveFailures, Duration initial, Duration max) {
      positive(initial, "initial");
      positive(max, "max");
      this.ejection = new Ejection(consecutiveFailures, initial.toMillis(), max.toMillis());
      return this;
    }

    /** Timeout of methods whose annotations set none; default 5 s. */
    public Builder defaultTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("defaultTimeout: " + timeout + " (expected: > 0)");
      }
      this.defaultTimeoutMillis = Math.max(1, timeout.toMillis());
      return this;
    }

    /**
     * How long opening a connection may take, and then again the RPCX handshake (TLS included) on
     * it; default 3 s. Calls waiting for a connection that does not open in time fail as
     * unavailable and safe to retry.
     */
    public Builder connectTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("connectTimeout: " + timeout + " (expected: > 0)");
      }
      this.connectTimeout = timeout;
      return this;
    }

    /** Checks these client interfaces when the client is built. */
    public Builder register(Class<?>... serviceInterfaces) {
      for (Class<?> type : serviceInterfaces) {
        interfaces.add(Objects.requireNonNull(type, "serviceInterface"));
      }
      return this;
    }

    /**
     * Finds and checks every interface annotated {@link RPCXClient} in these packages and their
     * subpackages when the client is built. Works on class directories and jars.
     */
    public Builder scan(String... packages) {
      for (String name : packages) {
        scanPackages.add(Objects.requireNonNull(name, "package"));
      }
      return this;
    }

    /** The class loader to scan; default the thread's context class loader. */
    public Builder classLoader(ClassLoader classLoader) {
      this.classLoader = classLoader;
      return this;
    }

    /** Network threads; default the number of processors. */
    public Builder ioThreads(int ioThreads) {
      if (ioThreads < 1) {
        throw new IllegalArgumentException("ioThreads: " + ioThreads + " (expected: >= 1)");
      }
      this.ioThreads = ioThreads;
      return this;
    }

    /** Largest frame sent or accepted, in bytes; default 16 MiB. */
    public Builder maxFrameSize(int maxFrameSize) {
      if (maxFrameSize < 1024) {
        throw new IllegalArgumentException("maxFrameSize: " + maxFrameSize + " (expected: >= 1024)");
      }
      this.maxFrameSize = maxFrameSize;
      return this;
    }

    /**
     * Calls in flight on one connection; beyond it, calls fail at once with {@link
     * io.rpcx.core.ResourceExhaustedException}. Default 10,000.
     */
    public Builder maxConcurrentCallsPerConnection(int maxCalls) {
      if (maxCalls < 1) {
        throw new IllegalArgumentException(
            "maxConcurrentCallsPerConnection: " + maxCalls + " (expected: >= 1)");
      }
      this.maxConcurrentCallsPerConnection = maxCalls;
      return this;
    }

    /** Deepest nesting of messages inside one result; default 64. */
    public Builder maxNestingDepth(int maxNestingDepth) {
      if (maxNestingDepth < 1) {
        throw new IllegalArgumentException(
            "maxNestingDepth: " + maxNestingDepth + " (expected: >= 1)");
      }
      this.maxNestingDepth = maxNestingDepth;
      return this;
    }

    /**
     * Where asynchronous results are decoded and their futures completed, so where callbacks
     * chained on those futures run; default a pool owned by the client with one thread per
     * processor, which adds threads only for callbacks blocked in {@code CompletableFuture.join}
     * or {@code get}. Callbacks that block on anything else (I/O, locks) should run on an
     * executor of their own ({@code thenApplyAsync(fn, executor)}), or set one here. Must not be
     * a network thread of the same client.
     */
    public Builder callbackExecutor(Executor executor) {
      this.callbackExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Whether to use a native transport where available (default): epoll on Linux, kqueue on
     * macOS, when the native jar of the platform is on the class path. {@code false} forces NIO, as
     * does the system property {@code rpcx.transport=nio}.
     */
    public Builder nativeTransport(boolean nativeTransport) {
      this.nativeTransport = nativeTransport;
      return this;
    }

    /**
     * Builds the client, checking every registered and scanned interface.
     *
     * @throws IllegalArgumentException naming the interface and method of the first mistake found
     * @throws IllegalStateException if the class path holds a protobuf-java or Netty version RPCX
     *     does not run with, naming the library, the version found and the range supported
     */
    public RpcxClient build() {
      RuntimeCompatibility.check();
      if (discovery != null && defaultTarget != null) {
        throw new IllegalArgumentException(
            "both target(host, port) and discovery(...) are set: choose one (targets of single"
                + " interfaces may be combined with discovery)");
      }
      Builder copy = new Builder();
      copy.defaultTarget = defaultTarget;
      copy.targets.putAll(targets);
      copy.discovery = discovery;
      copy.loadBalancing = loadBalancing;
      copy.loadBalancingByInterface.putAll(loadBalancingByInterface);
      copy.maxAttempts = maxAttempts;
      copy.retryRatio = retryRatio;
      copy.minRetriesPerSecond = minRetriesPerSecond;
      copy.ejection = ejection;
      copy.interfaces.addAll(interfaces);
      ClassLoader loader =
          classLoader != null ? classLoader : Thread.currentThread().getContextClassLoader();
      for (String scanPackage : scanPackages) {
        copy.interfaces.addAll(ClassScanner.scan(scanPackage, RPCXClient.class, loader));
      }
      copy.defaultTimeoutMillis = defaultTimeoutMillis;
      copy.connectTimeout = connectTimeout;
      copy.ioThreads = ioThreads;
      copy.maxFrameSize = maxFrameSize;
      copy.maxConcurrentCallsPerConnection = maxConcurrentCallsPerConnection;
      copy.maxNestingDepth = maxNestingDepth;
      copy.callbackExecutor = callbackExecutor;
      copy.nativeTransport = nativeTransport;
      copy.keepAliveInterval = keepAliveInterval;
      copy.keepAliveTimeout = keepAliveTimeout;
      copy.initialBackoff = initialBackoff;
      copy.maxBackoff = maxBackoff;
      copy.tls = tls;
      copy.maxBufferedInboundBytes = maxBufferedInboundBytes;
      copy.metadata.putAll(metadata);
      return new RpcxClient(copy);
    }
  }
}
