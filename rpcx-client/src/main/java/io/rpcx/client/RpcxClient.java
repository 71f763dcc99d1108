package io.rpcx.client;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.internal.call.CallbackPool;
import io.rpcx.client.internal.call.Completions;
import io.rpcx.client.internal.call.RetryBudget;
import io.rpcx.client.internal.call.RetryPolicy;
import io.rpcx.client.internal.cluster.Member;
import io.rpcx.client.internal.cluster.Members;
import io.rpcx.client.internal.cluster.ServiceCluster;
import io.rpcx.client.internal.config.ClientConfig;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.client.internal.proxy.ClientInterfaces;
import io.rpcx.client.internal.proxy.ProxyFactory;
import io.rpcx.client.internal.transport.ClientTransport;
import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.config.Checks;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.config.TypeScan;
import io.rpcx.core.internal.runtime.RuntimeCompatibility;
import io.rpcx.core.internal.transport.InProcess;
import io.rpcx.core.internal.transport.InboundBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

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
 * <p><b>gRPC servers.</b> The same interface calls a gRPC server that implements the service's
 * exported definitions (written in Go or Python from {@code rpcx proto}, say), chosen per server: an
 * endpoint written {@code grpc://host:port} ({@link Builder#targets(Class, String...)}, {@link
 * io.rpcx.core.discovery.StaticDiscovery}), or one a discovery lists with the metadata {@code
 * protocol=grpc} ({@link ServiceEndpoint#PROTOCOL}). Discovery, load balancing, retries, deadlines,
 * interceptors and metadata work as with RPCX's own servers (docs/GRPC.md, "Calling gRPC servers
 * from RPCX").
 *
 * <pre>{@code
 * RpcxClient client = RpcxClient.builder()
 *     .targets(OrderService.class, "grpc://orders-go.internal:50051")
 *     .build();
 * }</pre>
 *
 * <p>{@link #close()} closes the connections; calls still pending fail as unavailable.
 */
public final class RpcxClient implements AutoCloseable {
  /** Timeout of calls whose method and interface set none: 5 seconds. */
  public static final long DEFAULT_TIMEOUT_MILLIS = 5_000;
  /** Default largest frame accepted or sent: 16 MiB. */
  public static final int DEFAULT_MAX_FRAME_SIZE = ConnectionSettings.DEFAULT_MAX_FRAME_SIZE;

  private final ClientTransport transport;
  private final CallbackPool callbacks;
  private final ProxyFactory proxies;
  private final Members members;
  private final RetryPolicy retries;
  private volatile boolean closed;

  private RpcxClient(ClientConfig config) {
    ClientInterfaces interfaces = ClientInterfaces.check(config); // before any thread starts
    this.transport = new ClientTransport(config);
    this.callbacks = CallbackPool.of(config.callbackExecutor());
    try {
      this.members = new Members(transport::open, config.ejection(), transport.scheduler());
      this.retries =
          new RetryPolicy(
              config.maxAttempts(),
              new RetryBudget(config.retryRatio(), config.minRetriesPerSecond()));
      this.proxies =
          new ProxyFactory(
              config, interfaces, members, new Completions(callbacks.executor()), retries);
    } catch (RuntimeException e) {
      try {
        transport.close();
        callbacks.shutdown();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** A builder of a client. */
  public static Builder builder() {
    return new Builder();
  }

  /** What the client is doing, read live: calls in flight, connections, retries, ejections. */
  public ClientStats stats() {
    return new ClientStats() {
      @Override
      public int callsInFlight() {
        return transport.callsInFlight();
      }

      @Override
      public int openConnections() {
        return transport.openConnections();
      }

      @Override
      public long retries() {
        return retries.retries();
      }

      @Override
      public long ejections() {
        return members.ejections();
      }
    };
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
    return serviceInterface.cast(proxies.proxy(serviceInterface));
  }

  /**
   * Sends a call described by names, type descriptors and encoded value messages instead of an
   * interface (for tools such as the {@code rpcx} command line); the future completes with the
   * reply's value message (empty for null or void), or fails with the {@link
   * io.rpcx.core.RpcxException} a proxy's call would throw. Its servers are the client's {@link
   * Builder#target default target}, {@link Builder#inProcess in-process server} or {@link
   * Builder#discovery discovery}.
   *
   * @throws IllegalArgumentException if the client has neither a default target nor a discovery,
   *     or an argument's value message does not start with field 1 of its type's wire type
   * @throws IllegalStateException if the client is closed
   */
  public CompletableFuture<byte[]> call(RawCall call) {
    Objects.requireNonNull(call, "call");
    if (closed) {
      throw new IllegalStateException("the client is closed");
    }
    return proxies.call(call);
  }

  /**
   * The servers the calls of {@code serviceInterface} go to, and their state; empty if no proxy of
   * it was created yet.
   */
  public List<EndpointStatus> endpoints(Class<?> serviceInterface) {
    ServiceCluster cluster = proxies.cluster(serviceInterface);
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
    proxies.close();
    callbacks.shutdown();
  }

  /**
   * Configures and builds an {@link RpcxClient}. Not thread-safe; every setter checks its value at
   * once (refusing it with an {@link InvalidSettingException} naming the setting, the value and
   * what it accepts), and {@link #build()} makes an immutable configuration, so a builder can be
   * reused.
   */
  public static final class Builder {
    private int ioThreads = Runtime.getRuntime().availableProcessors();
    private boolean nativeTransport = true;
    private int maxFrameSize = ConnectionSettings.DEFAULT_MAX_FRAME_SIZE;
    private int maxNestingDepth = DecodeContext.DEFAULT_MAX_DEPTH;
    private int maxConcurrentCallsPerConnection = ConnectionSettings.DEFAULT_MAX_CONCURRENT_CALLS;
    private long maxBufferedInboundBytes = InboundBudget.defaultLimit();
    private int maxStreamWindow = ConnectionSettings.DEFAULT_MAX_STREAM_WINDOW;
    private long maxStreamBufferedBytes = ConnectionSettings.DEFAULT_MAX_STREAM_BUFFERED_BYTES;
    private TlsConfig tls;
    private String inProcessName;
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
    private Duration keepAliveInterval = Duration.ofSeconds(1);
    private Duration keepAliveTimeout = Duration.ofSeconds(3);
    private boolean keepAliveWithoutCalls;
    private Duration initialBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofSeconds(120);
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private final List<ClientInterceptor> interceptors = new ArrayList<>();

    private Builder() {}

    /**
     * Pings a connection that has calls in flight and on which nothing arrived for {@code
     * interval}, and closes it if nothing arrives within {@code timeout} after the ping: a paused
     * or unreachable server is found out within {@code interval + timeout} of falling silent, and
     * its calls fail as unavailable (idempotent ones are retried elsewhere) instead of waiting
     * for their timeouts. Default 1 s and 3 s: within 4 s, before the default call timeout of
     * 5 s, while a server stopped for less than 3 s (a long GC pause) keeps its connection.
     * Connections with no call in flight are not pinged unless {@link #keepAliveWithoutCalls}.
     */
    public Builder keepAlive(Duration interval, Duration timeout) {
      this.keepAliveInterval = Checks.positive(interval, "interval");
      this.keepAliveTimeout = Checks.positive(timeout, "timeout");
      return this;
    }

    /**
     * Whether connections with no call in flight are pinged too (default false, as gRPC's {@code
     * keepAliveWithoutCalls}): an idle connection then costs nothing on the network, and a
     * server closes it after its idle timeout (telling the client with GOAWAY first, so no call
     * is lost). Turn it on when something between client and server (a NAT, a firewall, a load
     * balancer) drops connections that stay quiet, so that the first call after a quiet spell
     * does not go out on a connection that is already dead.
     */
    public Builder keepAliveWithoutCalls(boolean keepAliveWithoutCalls) {
      this.keepAliveWithoutCalls = keepAliveWithoutCalls;
      return this;
    }

    /**
     * Backoff between failed connection attempts to one server: {@code initial}, then 1.6 times
     * longer each time up to {@code max}, each randomized by ±20%. Calls made while waiting fail
     * at once as unavailable (safe to retry). Default 1 s up to 120 s.
     */
    public Builder reconnectBackoff(Duration initial, Duration max) {
      Checks.positive(initial, "initial");
      Checks.positive(max, "max");
      if (max.compareTo(initial) < 0) {
        throw new InvalidSettingException("max", max, ">= initial " + initial);
      }
      this.initialBackoff = initial;
      this.maxBackoff = max;
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
      this.maxBufferedInboundBytes = Checks.atLeast(bytes, 1L, "maxBufferedInboundBytes");
      return this;
    }

    /**
     * The window of each stream this client receives (server streams and bidirectional streams; docs/STREAMING.md): the
     * messages it grants the server and has not yet handed to the subscriber, at most. It reads ahead
     * of the subscriber by up to this many, as a transport window does, and never by more than
     * about {@link #maxStreamBufferedBytes} (each message counted at the largest seen on the
     * stream): 16-byte messages run with the whole window in flight, 1 MiB chunks with four.
     * Default 1024; 1 keeps one message at most in flight or held.
     */
    public Builder maxStreamWindow(int messages) {
      this.maxStreamWindow = Checks.atLeast(messages, 1, "maxStreamWindow");
      return this;
    }

    /**
     * The bytes of stream messages per stream this client lets the server have in flight and holds
     * (received, not yet taken by the subscriber): it grants credit only as far as that many of the
     * largest message seen on the stream fit, and none while the messages held take more. A
     * message larger than this still passes, one at a time. Default 4 MiB.
     */
    public Builder maxStreamBufferedBytes(long bytes) {
      this.maxStreamBufferedBytes = Checks.atLeast(bytes, 1L, "maxStreamBufferedBytes");
      return this;
    }

    /**
     * Connects with TLS ({@link TlsConfig#client()}), to gRPC servers too, with HTTP/2 negotiated
     * by ALPN ({@code h2}).
     */
    public Builder tls(TlsConfig tls) {
      Objects.requireNonNull(tls, "tls");
      if (tls.isServer()) {
        throw new InvalidSettingException(
            "tls", tls, "a server configuration", "TlsConfig.client()");
      }
      this.tls = tls;
      return this;
    }

    /**
     * Sends {@code value} as metadata {@code key} with every call; keys are lower-case ASCII. Use
     * {@link #bearerToken(String)} for credentials.
     */
    public Builder metadata(String key, String value) {
      metadata.put(Checks.metadataKey(key), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Adds an interceptor, told of every attempt of every call before it is sent and when it ends,
     * after those added before it (and before them at the end).
     */
    public Builder intercept(ClientInterceptor interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /** Sends {@code token} as {@code authorization: Bearer <token>} with every call. */
    public Builder bearerToken(String token) {
      return metadata("authorization", "Bearer " + Objects.requireNonNull(token, "token"));
    }

    /**
     * Sends the calls of every interface to the in-process server named {@code name} (built with
     * {@code RpcxServer.builder().inProcess(name)}) in this JVM, whatever its annotation says,
     * through Netty's local channels: the same framing, SCHEMA frames and codecs as over TCP, no
     * network. For tests. While no server of that name runs, calls fail with an {@link
     * io.rpcx.core.UnavailableException} naming it. Not with {@link #target}, {@link #targets} or
     * {@link #discovery}, nor with {@link #tls} ({@link #build()} fails).
     */
    public Builder inProcess(String name) {
      this.inProcessName = InProcess.checkName(name);
      return this;
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

    /**
     * Sends the calls of every interface to {@code endpoint}, whatever its annotation says (unless
     * the interface has its own targets): {@code host:port} for an RPCX server, {@code
     * grpc://host:port} for a gRPC server that implements the services' exported definitions. Not
     * with {@link #discovery}.
     *
     * @throws InvalidSettingException if it is not an endpoint ({@link ServiceEndpoint#parse})
     */
    public Builder target(String endpoint) {
      this.defaultTarget = List.of(ServiceEndpoint.parse(endpoint));
      return this;
    }

    /** Sends the calls of {@code serviceInterface} to {@code host:port}. */
    public Builder target(Class<?> serviceInterface, String host, int port) {
      Objects.requireNonNull(host, "host");
      return targets(serviceInterface, List.of(ServiceEndpoint.of(host.strip(), port)));
    }

    /**
     * Spreads the calls of {@code serviceInterface} over these servers, each {@code host:port} for
     * an RPCX server or {@code grpc://host:port} for a gRPC server that implements the service's
     * exported definitions (see {@link #loadBalancing(Class, LoadBalancing)}).
     */
    public Builder targets(Class<?> serviceInterface, String... endpoints) {
      List<ServiceEndpoint> parsed = new ArrayList<>();
      for (String endpoint : endpoints) {
        parsed.add(ServiceEndpoint.parse(endpoint));
      }
      return targets(serviceInterface, parsed);
    }

    /**
     * Spreads the calls of {@code serviceInterface} over these servers, each called in the
     * protocol it names ({@link ServiceEndpoint#protocol()}).
     */
    public Builder targets(Class<?> serviceInterface, List<ServiceEndpoint> endpoints) {
      Objects.requireNonNull(serviceInterface, "serviceInterface");
      if (endpoints.isEmpty()) {
        throw new InvalidSettingException(
            "targets of " + serviceInterface.getName(), endpoints, "none", "at least one");
      }
      targets.put(serviceInterface, List.copyOf(endpoints));
      return this;
    }

    /**
     * Finds the servers of every service in {@code discovery} (ZooKeeper, for example) and follows
     * its changes; interfaces with their own {@link #targets} keep them. Creating a proxy waits
     * for the discovery's first list of the service. A server listed with the metadata {@code
     * protocol=grpc} is called over gRPC.
     */
    public Builder discovery(ServiceDiscovery discovery) {
      this.discovery = Objects.requireNonNull(discovery, "discovery");
      return this;
    }

    /**
     * The zone this client runs in, such as its Kubernetes node's {@code
     * topology.kubernetes.io/zone}: the round-robin and least-in-flight balancers give a call to a
     * server the discovery places in the same zone ({@code ServiceEndpoint.zone()}) while one of
     * them may take it, and to the others only when none may (ejected, unreachable). Consistent
     * hashing ignores zones, so that keys keep their server. Default: none, every server alike.
     */
    public Builder zone(String zone) {
      Objects.requireNonNull(zone, "zone");
      if (zone.isBlank()
          || zone.length() > ServiceEndpoint.MAX_METADATA_VALUE_LENGTH
          || zone.chars().anyMatch(Character::isISOControl)) {
        // What a discovery could list as an endpoint's zone, which this is compared with.
        throw new InvalidSettingException(
            "zone", zone, "1-" + ServiceEndpoint.MAX_METADATA_VALUE_LENGTH + " printable characters");
      }
      this.zone = zone;
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
      this.maxAttempts = Checks.atLeast(maxAttempts, 1, "maxAttempts");
      return this;
    }

    /**
     * Caps retries at {@code ratio} times the calls of the last 10 seconds, plus {@code
     * minPerSecond} per second; default 0.2 and 10 (Finagle's). Failing servers then see at most
     * 20% more calls, never a storm of retries.
     */
    public Builder retryBudget(double ratio, int minPerSecond) {
      if (!(ratio >= 0) || ratio > 1000) {
        throw new InvalidSettingException("ratio", ratio, "0-1000");
      }
      this.minRetriesPerSecond = Checks.atLeast(minPerSecond, 0, "minPerSecond");
      this.retryRatio = ratio;
      return this;
    }

    /**
     * Takes a server out of rotation after {@code consecutiveFailures} calls in a row that could not
     * reach it or timed out, for {@code initial} growing 1.6 times per ejection in a row up to {@code
     * max}, each ±20%; then it takes one call at a time until one is answered. Default 5, 1 s, 30 s.
     */
    public Builder ejection(int consecutiveFailures, Duration initial, Duration max) {
      Checks.positive(initial, "initial");
      Checks.positive(max, "max");
      this.ejection = new Ejection(consecutiveFailures, initial.toMillis(), max.toMillis());
      return this;
    }

    /** Timeout of methods whose annotations set none; default 5 s. */
    public Builder defaultTimeout(Duration timeout) {
      this.defaultTimeoutMillis =
          Math.max(1, Checks.positive(timeout, "defaultTimeout").toMillis());
      return this;
    }

    /**
     * How long opening a connection may take, then again its TLS handshake (with TLS), then again
     * the RPCX handshake, each counted from the end of the one before; default 3 s. Calls waiting
     * for a connection that does not open in time fail as unavailable and safe to retry.
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Checks.positive(timeout, "connectTimeout");
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
      scan = scan.andPackages(packages);
      return this;
    }

    /** The class loader to scan; default the thread's context class loader. */
    public Builder classLoader(ClassLoader classLoader) {
      scan = scan.withClassLoader(classLoader);
      return this;
    }

    /** Network threads; default the number of processors. */
    public Builder ioThreads(int ioThreads) {
      this.ioThreads = Checks.atLeast(ioThreads, 1, "ioThreads");
      return this;
    }

    /** Largest frame sent or accepted, in bytes; default 16 MiB. */
    public Builder maxFrameSize(int maxFrameSize) {
      this.maxFrameSize =
          Checks.atLeast(maxFrameSize, ConnectionSettings.MIN_MAX_FRAME_SIZE, "maxFrameSize");
      return this;
    }

    /**
     * Calls in flight on one connection; beyond it, calls fail at once with {@link
     * io.rpcx.core.ResourceExhaustedException}. Default 10,000.
     */
    public Builder maxConcurrentCallsPerConnection(int maxCalls) {
      this.maxConcurrentCallsPerConnection =
          Checks.atLeast(maxCalls, 1, "maxConcurrentCallsPerConnection");
      return this;
    }

    /** Deepest nesting of messages inside one result; default 64. */
    public Builder maxNestingDepth(int maxNestingDepth) {
      this.maxNestingDepth = Checks.atLeast(maxNestingDepth, 1, "maxNestingDepth");
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
     * @throws io.rpcx.core.UnsupportedRuntimeException if the class path holds a protobuf-java or
     *     Netty version RPCX does not run with, naming the library, the version found and the range
     *     supported
     */
    public RpcxClient build() {
      RuntimeCompatibility.check();
      return new RpcxClient(config());
    }

    /**
     * The configuration, with the interfaces of the scanned packages found now.
     *
     * @throws IllegalArgumentException if settings contradict each other
     */
    ClientConfig config() {
      if (inProcessName != null
          && (defaultTarget != null || discovery != null || !targets.isEmpty())) {
        throw new IllegalArgumentException(
            "inProcess(\"" + inProcessName + "\") cannot be combined with target(...),"
                + " targets(...) or discovery(...): an in-process client calls only the"
                + " in-process server of that name");
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
      return new ClientConfig(
          new ConnectionSettings(
              ioThreads,
              nativeTransport,
              maxFrameSize,
              maxNestingDepth,
              maxConcurrentCallsPerConnection,
              maxBufferedInboundBytes,
              maxStreamWindow,
              maxStreamBufferedBytes,
              tls,
              inProcessName),
          // An in-process server's name stands for its address; the port is never used.
          inProcessName != null ? List.of(ServiceEndpoint.of(inProcessName, 1)) : defaultTarget,
          targets,
          discovery,
          loadBalancing,
          zone,
          loadBalancingByInterface,
          maxAttempts,
          retryRatio,
          minRetriesPerSecond,
          ejection,
          all,
          defaultTimeoutMillis,
          connectTimeout,
          callbackExecutor,
          keepAliveInterval,
          keepAliveTimeout,
          keepAliveWithoutCalls,
          initialBackoff,
          maxBackoff,
          metadata,
          interceptors);
    }
  }
}
