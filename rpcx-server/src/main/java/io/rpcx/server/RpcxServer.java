package io.rpcx.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.ServiceRegistrar;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.model.ClassScanner;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.runtime.RuntimeCompatibility;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.server.internal.dispatch.CallTracker;
import io.rpcx.server.internal.dispatch.ExceptionLog;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import io.rpcx.server.internal.dispatch.PublishedServices;
import io.rpcx.server.internal.dispatch.WorkerPool;
import io.rpcx.server.internal.transport.ServerTransport;
import java.lang.reflect.Constructor;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The service center: publishes service implementations as remote services, and starts, stops and
 * reports on them.
 *
 * <pre>{@code
 * RpcxServer server = RpcxServer.builder()
 *     .port(9000)
 *     .service(new OrderServiceImpl())      // or .scan("com.example.services")
 *     .build()
 *     .start();
 * ...
 * server.stop();                            // lets calls in flight finish
 * }</pre>
 *
 * <p>Each service is an object of a class annotated {@link RPCXServer}; its published methods are
 * those of the service interfaces it implements. Services are checked when the server is built: a
 * mistake (duplicate names, an unsupported parameter type) fails {@link Builder#build()} with a
 * message naming the class and method.
 *
 * <p>Implementation code runs on the server's executor, never on a network thread, unless {@link
 * Builder#directExecutor()} asks for it. It must be thread-safe: calls arrive concurrently.
 *
 * <p>Lifecycle: {@link #start()} once; {@link #stop()} stops accepting connections, tells connected
 * clients to go away, lets calls in flight finish within the grace period, then closes everything.
 * A stopped server cannot be restarted. Instances are thread-safe.
 */
public final class RpcxServer implements AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(RpcxServer.class);

  /** Default largest frame accepted: 16 MiB. */
  public static final int DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024;
  /**
   * Metadata key of the random id a server registers each time it starts, by which clients tell a
   * restarted server from the one that had its address before.
   */
  public static final String INSTANCE_KEY = "instance";

  /** Default grace period of {@link #stop()}: 10 seconds. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(10);

  private enum State {
    NEW,
    RUNNING,
    STOPPING,
    TERMINATED
  }

  private final Builder config;
  private final PublishedServices registry;
  private final CallTracker tracker = new CallTracker();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Executor executor;
  private final ExecutorService ownedExecutor;
  private State state = State.NEW;
  private ServerTransport transport;
  private InetSocketAddress address;
  private final List<ServiceRegistrar.Registration> registrations = new ArrayList<>();

  private RpcxServer(Builder builder, PublishedServices registry) {
    this.config = builder;
    this.registry = registry;
    if (builder.direct) {
      this.executor = null;
      this.ownedExecutor = null;
    } else if (builder.executor != null) {
      this.executor = builder.executor;
      this.ownedExecutor = null;
    } else {
      this.ownedExecutor =
          WorkerPool.create(builder.workerThreads, builder.maxQueuedCalls, "rpcx-server-worker-");
      this.executor = ownedExecutor;
    }
  }

  /** A builder of a server. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Binds the port and starts serving.
   *
   * @return this server
   * @throws java.io.UncheckedIOException if the address cannot be bound
   * @throws IllegalStateException if the server was already started
   */
  public synchronized RpcxServer start() {
    if (state != State.NEW) {
      throw new IllegalStateException("the server was already started (state: " + state + ")");
    }
    RequestDispatcher dispatcher =
        new RequestDispatcher(
            registry,
            executor,
            tracker,
            config.maxMetadataBytes,
            config.maxNestingDepth,
            config.interceptors,
            new ExceptionLog(
                config.declaredExceptionLogging.level(),
                config.declaredExceptionLogging.includesStackTrace(),
                config.otherExceptionLogging.level(),
                config.otherExceptionLogging.includesStackTrace()));
    ServerTransport.Options options = new ServerTransport.Options();
    options.allowNative = config.nativeTransport;
    options.ioThreads = config.ioThreads;
    options.maxFrameSize = config.maxFrameSize;
    options.prefaceTimeoutMillis = config.prefaceTimeout.toMillis();
    options.maxConnections = config.maxConnections;
    options.maxConcurrentCallsPerConnection = config.maxConcurrentCallsPerConnection;
    options.idleTimeoutMillis = config.idleTimeout.toMillis();
    options.maxBufferedInboundBytes = config.maxBufferedInboundBytes;
    options.tls = config.tls;
    try {
      transport = new ServerTransport(options, dispatcher);
    } catch (RuntimeException e) {
      state = State.TERMINATED;
      shutdownExecutor(0);
      terminated.countDown();
      throw e;
    }
    try {
      address = transport.bind(config.bindAddress, config.port);
    } catch (RuntimeException e) {
      state = State.TERMINATED;
      shutdownExecutor(0);
      terminated.countDown();
      throw e;
    }
    state = State.RUNNING;
    logger.info(
        "RPCX server listening on {} ({}), services: {}",
        address,
        transport.transportName(),
        String.join(", ", registry.serviceNames()));
    if (config.registrar != null) {
      register();
    }
    return this;
  }

  /** Announces every service to the registrar; a failure stops the server. */
  private void register() {
    ServiceEndpoint self;
    try {
      Map<String, String> metadata = new LinkedHashMap<>(config.registrationMetadata);
      metadata.put(INSTANCE_KEY, UUID.randomUUID().toString());
      self =
          ServiceEndpoint.of(
              config.advertisedHost != null ? config.advertisedHost : defaultAdvertisedHost(),
              config.advertisedPort > 0 ? config.advertisedPort : address.getPort(),
              metadata);
      for (String service : registry.serviceNames()) {
        registrations.add(config.registrar.register(service, self));
      }
    } catch (RuntimeException e) {
      logger.error("Registering with {} failed; stopping", config.registrar.describe(), e);
      withdrawRegistrations();
      stopNow();
      throw e;
    }
    logger.info(
        "Registered {} as {} with {}",
        String.join(", ", registry.serviceNames()),
        self.address(),
        config.registrar.describe());
  }

  private synchronized void stopNow() {
    state = State.TERMINATED;
    transport.closeAll();
    transport.shutdownEventLoops();
    shutdownExecutor(0);
    terminated.countDown();
  }

  /**
   * The host announced when none is set: the bind address if it is a specific one, else the first
   * site-local IPv4 address of an interface that is up, else any non-loopback one, else loopback.
   */
  private String defaultAdvertisedHost() {
    InetAddress bound = address.getAddress();
    if (!bound.isAnyLocalAddress()) {
      return bound.getHostAddress();
    }
    InetAddress fallback = null;
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback()) {
          continue;
        }
        for (InetAddress candidate : Collections.list(nic.getInetAddresses())) {
          if (candidate instanceof Inet4Address && candidate.isSiteLocalAddress()) {
            return candidate.getHostAddress();
          }
          if (fallback == null && !candidate.isLinkLocalAddress()) {
            fallback = candidate;
          }
        }
      }
    } catch (java.net.SocketException e) {
      logger.warn("Cannot list network interfaces to choose the address to register", e);
    }
    String chosen =
        fallback != null ? fallback.getHostAddress() : InetAddress.getLoopbackAddress().getHostAddress();
    logger.info("Registering address {}; set RpcxServer.Builder.advertise(...) to choose", chosen);
    return chosen;
  }

  private void withdrawRegistrations() {
    List<ServiceRegistrar.Registration> current;
    synchronized (this) {
      current = new ArrayList<>(registrations);
      registrations.clear();
    }
    // In parallel, and at most 5 s in all: a slow registry must not eat the grace period.
    List<Thread> withdrawals = new ArrayList<>();
    for (ServiceRegistrar.Registration registration : current) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  registration.close();
                } catch (RuntimeException e) {
                  logger.warn(
                      "Withdrawing a registration from {} failed", config.registrar.describe(), e);
                }
              },
              "rpcx-server-withdraw");
      thread.setDaemon(true);
      thread.start();
      withdrawals.add(thread);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    try {
      for (Thread thread : withdrawals) {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The port the server listens on; the real one when it was built with port 0.
   *
   * @throws IllegalStateException if the server was never started
   */
  public synchronized int port() {
    if (address == null) {
      throw new IllegalStateException("the server has not been started");
    }
    return address.getPort();
  }

  /** The published service names, sorted. */
  public List<String> services() {
    return registry.serviceNames();
  }

  /** Whether the server is started and not stopping. */
  public synchronized boolean isRunning() {
    return state == State.RUNNING;
  }

  /** Calls accepted and not answered yet. */
  public int callsInFlight() {
    return tracker.inFlight();
  }

  /** Client connections currently open. */
  public synchronized int connectionCount() {
    return transport == null ? 0 : transport.connectionCount();
  }

  /** Stops the server gracefully, waiting at most the builder's grace period (default 10 s). */
  public void stop() {
    stop(config.shutdownGracePeriod);
  }

  /**
   * Stops the server: withdraws its registrations, sends GOAWAY to connected clients (calls they
   * send afterwards are refused as unavailable and not processed), stops accepting connections
   * (one opened meanwhile gets GOAWAY too), lets calls in flight finish within
   * {@code gracePeriod}, then closes the remaining connections. Returns when the server is
   * terminated. Calling it again, or on a server never started, does nothing.
   */
  public void stop(Duration gracePeriod) {
    Objects.requireNonNull(gracePeriod, "gracePeriod");
    boolean stopping;
    synchronized (this) {
      if (state == State.NEW) {
        state = State.TERMINATED;
        shutdownExecutor(0);
        terminated.countDown();
        return;
      }
      stopping = state == State.RUNNING;
      if (stopping) {
        state = State.STOPPING;
      }
    }
    if (!stopping) {
      // Another thread stops it: wait outside the monitor, which that stop takes to finish.
      awaitTerminationUninterruptibly();
      return;
    }
    long deadline = System.nanoTime() + gracePeriod.toNanos();
    boolean interrupted = false;
    try {
      withdrawRegistrations(); // clients stop choosing this server; GOAWAY moves the rest
      // GOAWAY first: once the port refuses, calls on open connections are refused as well.
      transport.goAwayAll("the server is shutting down");
      transport.stopAccepting();
      boolean idle = tracker.awaitIdle(deadline);
      boolean closedByClients = transport.awaitConnectionsClosed(deadline);
      if (!idle) {
        logger.warn(
            "Grace period of {} ms ended with {} calls still running; closing connections",
            gracePeriod.toMillis(),
            tracker.inFlight());
      } else if (!closedByClients) {
        logger.info("Closing {} connections that stayed open after shutdown was announced",
            transport.connectionCount());
      }
    } catch (InterruptedException e) {
      interrupted = true;
    } finally {
      transport.closeAll();
      transport.shutdownEventLoops();
      shutdownExecutor(Math.max(0, deadline - System.nanoTime()));
      synchronized (this) {
        state = State.TERMINATED;
      }
      terminated.countDown();
      logger.info("RPCX server on {} stopped", address);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Blocks until the server is terminated. */
  public void awaitTermination() throws InterruptedException {
    terminated.await();
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  private void awaitTerminationUninterruptibly() {
    boolean interrupted = false;
    while (true) {
      try {
        terminated.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void shutdownExecutor(long timeoutNanos) {
    if (ownedExecutor == null) {
      return;
    }
    ownedExecutor.shutdown();
    try {
      if (!ownedExecutor.awaitTermination(timeoutNanos, TimeUnit.NANOSECONDS)) {
        ownedExecutor.shutdownNow();
      }
    } catch (InterruptedException e) {
      ownedExecutor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Configures and builds an {@link RpcxServer}. Not thread-safe; {@link #build()} validates every
   * service and copies the configuration, so a builder can be reused.
   */
  public static final class Builder {
    private String bindAddress = "0.0.0.0";
    private ServiceRegistrar registrar;
    private String advertisedHost;
    private int advertisedPort;
    private final Map<String, String> registrationMetadata = new LinkedHashMap<>();
    private int port;
    private final List<Object> services = new ArrayList<>();
    private final List<String> serviceNames = new ArrayList<>();
    private final List<String> scanPackages = new ArrayList<>();
    private ClassLoader classLoader;
    private Executor executor;
    private boolean direct;
    private int workerThreads = 200;
    private int maxQueuedCalls = 10_000;
    private int ioThreads = Runtime.getRuntime().availableProcessors();
    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE;
    private int maxMetadataBytes = 8 * 1024;
    private int maxNestingDepth = DecodeContext.DEFAULT_MAX_DEPTH;
    private Duration shutdownGracePeriod = DEFAULT_SHUTDOWN_GRACE_PERIOD;
    private Duration prefaceTimeout = Duration.ofSeconds(10);
    private boolean nativeTransport = true;
    private int maxConnections = 10_000;
    private int maxConcurrentCallsPerConnection = 10_000;
    private Duration idleTimeout = Duration.ofMinutes(10);
    private long maxBufferedInboundBytes = InboundBudget.defaultLimit();
    private TlsConfig tls;
    private final List<ServerInterceptor> interceptors = new ArrayList<>();
    private ExceptionLogging declaredExceptionLogging = ExceptionLogging.at(Level.DEBUG);
    private ExceptionLogging otherExceptionLogging = ExceptionLogging.withStackTrace(Level.WARN);

    private Builder() {}

    /**
     * How exceptions thrown by implementations are logged (the client receives them either way):
     * {@code declared} for those the method declares, which are part of its contract (default
     * one line at DEBUG), {@code other} for any other exception, including one thrown by an
     * interceptor (default WARN with the stack trace: an exception nobody declared is usually a
     * bug). For example, {@code exceptionLogging(ExceptionLogging.off(),
     * ExceptionLogging.at(Level.INFO))} for a service that signals bad input with {@code
     * IllegalArgumentException}.
     */
    public Builder exceptionLogging(ExceptionLogging declared, ExceptionLogging other) {
      this.declaredExceptionLogging = Objects.requireNonNull(declared, "declared");
      this.otherExceptionLogging = Objects.requireNonNull(other, "other");
      return this;
    }

    /**
     * Connections the server keeps open at once; one more is told why (GOAWAY with
     * RESOURCE_EXHAUSTED) and closed, its calls refused as not processed. Default 10,000.
     */
    public Builder maxConnections(int maxConnections) {
      if (maxConnections < 1) {
        throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected: >= 1)");
      }
      this.maxConnections = maxConnections;
      return this;
    }

    /**
     * Calls one connection may have in flight; one more is refused at once with
     * RESOURCE_EXHAUSTED, never queued. Default 10,000.
     */
    public Builder maxConcurrentCallsPerConnection(int maxCalls) {
      if (maxCalls < 1) {
        throw new IllegalArgumentException(
            "maxConcurrentCallsPerConnection: " + maxCalls + " (expected: >= 1)");
      }
      this.maxConcurrentCallsPerConnection = maxCalls;
      return this;
    }

    /**
     * Closes a connection on which nothing arrived for this long while no call was in flight.
     * RPCX clients ping idle connections every 30 s, so only dead or silent peers are closed.
     * Default 10 minutes.
     */
    public Builder idleTimeout(Duration idleTimeout) {
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      if (idleTimeout.isNegative() || idleTimeout.isZero()) {
        throw new IllegalArgumentException("idleTimeout: " + idleTimeout + " (expected: > 0)");
      }
      this.idleTimeout = idleTimeout;
      return this;
    }

    /**
     * Bytes the server may hold, over all connections, in frames still arriving and in requests
     * received and waiting to be decoded. A connection whose read would pass it stops being read
     * until there is room; while it stays full, the connection holding the largest incomplete
     * frame the longest is closed with GOAWAY (RESOURCE_EXHAUSTED) naming the reason. Default a
     * quarter of the JVM's maximum direct memory ({@code -XX:MaxDirectMemorySize}, by default the
     * maximum heap), at least 16 MiB.
     */
    public Builder maxBufferedInboundBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxBufferedInboundBytes: " + bytes + " (expected: >= 1)");
      }
      this.maxBufferedInboundBytes = bytes;
      return this;
    }

    /** Serves over TLS ({@link TlsConfig#server}), with mutual TLS if it requires client certificates. */
    public Builder tls(TlsConfig tls) {
      Objects.requireNonNull(tls, "tls");
      if (!tls.isServer()) {
        throw new IllegalArgumentException("tls: a client configuration (expected: TlsConfig.server(...))");
      }
      this.tls = tls;
      return this;
    }

    /**
     * Adds an interceptor, run around every call before its arguments are decoded, after those
     * added before it. {@link ServerInterceptors#bearerToken} authenticates calls.
     */
    public Builder intercept(ServerInterceptor interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Announces every service to {@code registrar} (ZooKeeper, for example) once the server
     * listens, and withdraws them first thing when it stops, so that clients using the matching
     * discovery find it and stop choosing it before it goes away.
     */
    public Builder registrar(ServiceRegistrar registrar) {
      this.registrar = Objects.requireNonNull(registrar, "registrar");
      return this;
    }

    /**
     * The host clients are told to connect to when the server registers; default the bind address
     * if it is a specific one, else the first site-local IPv4 address of this machine.
     */
    public Builder advertise(String host) {
      Objects.requireNonNull(host, "host");
      ServiceEndpoint.of(host, 1); // checks the host
      this.advertisedHost = host;
      return this;
    }

    /**
     * The host and port clients are told to connect to, when they differ from what the server
     * binds (behind NAT or a port mapping).
     */
    public Builder advertise(String host, int port) {
      ServiceEndpoint.of(Objects.requireNonNull(host, "host"), port); // checks both
      this.advertisedHost = host;
      this.advertisedPort = port;
      return this;
    }

    /**
     * Metadata registered with the server's address (a zone, a version); the key {@value
     * RpcxServer#INSTANCE_KEY} is added by the server.
     */
    public Builder registrationMetadata(String key, String value) {
      if (INSTANCE_KEY.equals(key)) {
        throw new IllegalArgumentException(
            "registrationMetadata: '" + INSTANCE_KEY + "' is set by the server (a new id at each"
                + " start)");
      }
      Map<String, String> check = new LinkedHashMap<>(registrationMetadata);
      check.put(key, value);
      ServiceEndpoint.of("localhost", 1, check); // checks key and value
      registrationMetadata.put(key, value);
      return this;
    }

    /** The local address to listen on; default {@code 0.0.0.0} (all interfaces). */
    public Builder bindAddress(String bindAddress) {
      this.bindAddress = Objects.requireNonNull(bindAddress, "bindAddress");
      return this;
    }

    /** The port to listen on; 0 (the default) picks a free one, which {@link #port()} reports. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port: " + port + " (expected: 0-65535)");
      }
      this.port = port;
      return this;
    }

    /** Publishes {@code implementation}, whose class is annotated {@link RPCXServer}. */
    public Builder service(Object implementation) {
      services.add(Objects.requireNonNull(implementation, "implementation"));
      serviceNames.add(null);
      return this;
    }

    /** Publishes {@code implementation} as {@code name}, whether or not its class is annotated. */
    public Builder service(String name, Object implementation) {
      services.add(Objects.requireNonNull(implementation, "implementation"));
      serviceNames.add(Objects.requireNonNull(name, "name"));
      return this;
    }

    /**
     * Publishes every class annotated {@link RPCXServer} in these packages and their subpackages,
     * created through its public no-argument constructor. Works on class directories and jars.
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

    /**
     * Runs implementations on {@code executor}, which the caller owns and shuts down. By default
     * the server runs them on its own pool of {@link #workerThreads(int)} threads.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      this.direct = false;
      return this;
    }

    /**
     * Runs implementations directly on the network threads. Fastest for implementations that
     * never block and finish in microseconds; one blocking call stalls every connection of its
     * thread.
     */
    public Builder directExecutor() {
      this.direct = true;
      this.executor = null;
      return this;
    }

    /** Threads of the default executor; default 200. */
    public Builder workerThreads(int workerThreads) {
      if (workerThreads < 1) {
        throw new IllegalArgumentException("workerThreads: " + workerThreads + " (expected: >= 1)");
      }
      this.workerThreads = workerThreads;
      return this;
    }

    /**
     * Calls the default executor queues when all its threads are busy; beyond that, calls are
     * rejected with RESOURCE_EXHAUSTED. Default 10,000.
     */
    public Builder maxQueuedCalls(int maxQueuedCalls) {
      if (maxQueuedCalls < 1) {
        throw new IllegalArgumentException(
            "maxQueuedCalls: " + maxQueuedCalls + " (expected: >= 1)");
      }
      this.maxQueuedCalls = maxQueuedCalls;
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

    /**
     * Largest frame accepted or sent, in bytes; default 16 MiB. A client sending a larger frame is
     * disconnected; a larger result is answered with RESOURCE_EXHAUSTED.
     */
    public Builder maxFrameSize(int maxFrameSize) {
      if (maxFrameSize < 1024) {
        throw new IllegalArgumentException(
            "maxFrameSize: " + maxFrameSize + " (expected: >= 1024)");
      }
      this.maxFrameSize = maxFrameSize;
      return this;
    }

    /** Largest total size of a request's metadata, in bytes; default 8 KiB. */
    public Builder maxMetadataBytes(int maxMetadataBytes) {
      if (maxMetadataBytes < 0) {
        throw new IllegalArgumentException(
            "maxMetadataBytes: " + maxMetadataBytes + " (expected: >= 0)");
      }
      this.maxMetadataBytes = maxMetadataBytes;
      return this;
    }

    /** Deepest nesting of messages inside one argument; default 64. */
    public Builder maxNestingDepth(int maxNestingDepth) {
      if (maxNestingDepth < 1) {
        throw new IllegalArgumentException(
            "maxNestingDepth: " + maxNestingDepth + " (expected: >= 1)");
      }
      this.maxNestingDepth = maxNestingDepth;
      return this;
    }

    /** How long {@link RpcxServer#stop()} lets calls in flight finish; default 10 s. */
    public Builder shutdownGracePeriod(Duration shutdownGracePeriod) {
      this.shutdownGracePeriod = nonNegative(shutdownGracePeriod, "shutdownGracePeriod");
      return this;
    }

    /** How long a new connection may take to send its preface; default 10 s. */
    public Builder prefaceTimeout(Duration prefaceTimeout) {
      this.prefaceTimeout = nonNegative(prefaceTimeout, "prefaceTimeout");
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
     * Validates every service and builds the server (not started).
     *
     * @throws IllegalArgumentException naming the class and method of the first mistake found
     * @throws IllegalStateException if the class path holds a protobuf-java or Netty version RPCX
     *     does not run with, naming the library, the version found and the range supported
     */
    public RpcxServer build() {
      RuntimeCompatibility.check();
      CodecRegistry codecs = StandardCodecs.registry();
      List<ServiceModel> models = new ArrayList<>();
      List<Object> implementations = new ArrayList<>();
      for (int i = 0; i < services.size(); i++) {
        Object implementation = services.get(i);
        String name = serviceNames.get(i);
        models.add(
            name == null
                ? ServiceModels.forServer(implementation.getClass(), codecs)
                : ServiceModels.forServer(name, implementation.getClass(), codecs));
        implementations.add(implementation);
      }
      ClassLoader loader =
          classLoader != null ? classLoader : Thread.currentThread().getContextClassLoader();
      for (String scanPackage : scanPackages) {
        List<Class<?>> found = ClassScanner.scan(scanPackage, RPCXServer.class, loader);
        if (found.isEmpty()) {
          logger.warn("Scanning {} found no class annotated @RPCXServer", scanPackage);
        }
        for (Class<?> type : found) {
          models.add(ServiceModels.forServer(type, codecs));
          implementations.add(instantiate(type, scanPackage));
        }
      }
      if (models.isEmpty()) {
        throw new IllegalArgumentException(
            "no service to publish: call service(...) or scan(...) on the builder");
      }
      PublishedServices registry = PublishedServices.of(models, implementations);
      Builder copy = copy();
      return new RpcxServer(copy, registry);
    }

    private static Object instantiate(Class<?> type, String scanPackage) {
      try {
        Constructor<?> constructor = type.getConstructor();
        return constructor.newInstance();
      } catch (NoSuchMethodException e) {
        throw new IllegalArgumentException(
            "cannot create " + type.getName() + " found by scanning " + scanPackage
                + ": it needs a public no-argument constructor, or register an instance with"
                + " service(...)");
      } catch (ReflectiveOperationException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        throw new IllegalArgumentException(
            "cannot create " + type.getName() + " found by scanning " + scanPackage + ": " + cause,
            cause);
      }
    }

    private Builder copy() {
      Builder copy = new Builder();
      copy.bindAddress = bindAddress;
      copy.registrar = registrar;
      copy.advertisedHost = advertisedHost;
      copy.advertisedPort = advertisedPort;
      copy.registrationMetadata.putAll(registrationMetadata);
      copy.port = port;
      copy.executor = executor;
      copy.direct = direct;
      copy.workerThreads = workerThreads;
      copy.maxQueuedCalls = maxQueuedCalls;
      copy.ioThreads = ioThreads;
      copy.maxFrameSize = maxFrameSize;
      copy.maxMetadataBytes = maxMetadataBytes;
      copy.maxNestingDepth = maxNestingDepth;
      copy.shutdownGracePeriod = shutdownGracePeriod;
      copy.prefaceTimeout = prefaceTimeout;
      copy.nativeTransport = nativeTransport;
      copy.maxConnections = maxConnections;
      copy.maxConcurrentCallsPerConnection = maxConcurrentCallsPerConnection;
      copy.idleTimeout = idleTimeout;
      copy.maxBufferedInboundBytes = maxBufferedInboundBytes;
      copy.tls = tls;
      copy.interceptors.addAll(interceptors);
      copy.declaredExceptionLogging = declaredExceptionLogging;
      copy.otherExceptionLogging = otherExceptionLogging;
      return copy;
    }

    private static Duration nonNegative(Duration duration, String name) {
      Objects.requireNonNull(duration, name);
      if (duration.isNegative()) {
        throw new IllegalArgumentException(name + ": " + duration + " (expected: >= 0)");
      }
      return duration;
    }
  }
}
