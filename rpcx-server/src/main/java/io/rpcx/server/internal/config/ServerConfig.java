package io.rpcx.server.internal.config;

import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.ServiceRegistrar;
import io.rpcx.core.internal.config.Checks;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.config.TypeScan;
import io.rpcx.core.internal.runtime.VirtualThreads;
import io.rpcx.server.ExceptionLogging;
import io.rpcx.server.RefusalListener;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.server.internal.registration.Registration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.slf4j.event.Level;

/**
 * Everything a server was configured with, checked once and immutable: what {@code
 * RpcxServer.Builder} builds and the server's parts read. The builder writes into a {@link
 * Builder}, whose setters check their values.
 */
public final class ServerConfig {
  /** Default grace period of a stop: 10 seconds. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(10);
  /** Threads of the default worker pool. */
  public static final int DEFAULT_WORKER_THREADS = 200;
  /** Calls the default worker pool queues while all its threads are busy. */
  public static final int DEFAULT_MAX_QUEUED_CALLS = 10_000;
  /**
   * Calls in flight on virtual threads by default: as many as the default worker pool accepts
   * (running and queued), so that choosing virtual threads changes where calls run, not how many
   * the server takes on.
   */
  public static final int DEFAULT_VIRTUAL_THREAD_CALLS =
      DEFAULT_WORKER_THREADS + DEFAULT_MAX_QUEUED_CALLS;
  /**
   * The Java release from which a server not told where to run calls runs each on a virtual thread
   * of its own: 24, where a virtual thread blocking inside {@code synchronized} no longer pins its
   * carrier (JEP 491). On 21 to 23 implementation code that blocks while holding a monitor (many
   * JDBC drivers do) would hold one of the few carrier threads, so there the worker pool stays
   * the default and {@code virtualThreads()} opts in.
   */
  public static final int VIRTUAL_THREADS_BY_DEFAULT_FROM = 24;

  private final ConnectionSettings connection;
  private final String bindAddress;
  private final int port;
  private final ServiceRegistrar registrar;
  private final String advertisedHost;
  private final int advertisedPort;
  private final Map<String, String> registrationMetadata;
  private final List<ServiceBinding> services;
  private final TypeScan scan;
  private final Executor executor;
  private final boolean direct;
  private final boolean reflection;
  private final int workerThreads;
  private final int maxQueuedCalls;
  private final int virtualThreadCalls;
  private final int maxMetadataBytes;
  private final Duration shutdownGracePeriod;
  private final Duration prefaceTimeout;
  private final int maxConnections;
  private final Duration idleTimeout;
  /** How long a connection lives before GOAWAY, or {@code null} for ever. */
  private final Duration maxConnectionAge;
  private final Duration maxConnectionAgeGrace;
  private final List<ServerInterceptor> interceptors;
  private final List<RefusalListener> refusalListeners;
  private final ExceptionLogging declaredExceptionLogging;
  private final ExceptionLogging otherExceptionLogging;

  private ServerConfig(Builder builder) {
    this.connection = builder.connection.build();
    this.bindAddress = builder.bindAddress;
    this.port = builder.port;
    this.registrar = builder.registrar;
    this.advertisedHost = builder.advertisedHost;
    this.advertisedPort = builder.advertisedPort;
    this.registrationMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(builder.registrationMetadata));
    this.services = List.copyOf(builder.services);
    this.scan = builder.scan;
    this.executor = builder.executor;
    this.direct = builder.direct;
    this.reflection = builder.reflection;
    this.workerThreads = builder.workerThreads;
    this.maxQueuedCalls = builder.maxQueuedCalls;
    this.virtualThreadCalls = builder.virtualThreadCallsToUse();
    this.maxMetadataBytes = builder.maxMetadataBytes;
    this.shutdownGracePeriod = builder.shutdownGracePeriod;
    this.prefaceTimeout = builder.prefaceTimeout;
    this.maxConnections = builder.maxConnections;
    this.idleTimeout = builder.idleTimeout;
    this.maxConnectionAge = builder.maxConnectionAge;
    this.maxConnectionAgeGrace = builder.maxConnectionAgeGrace;
    this.interceptors = List.copyOf(builder.interceptors);
    this.refusalListeners = List.copyOf(builder.refusalListeners);
    this.declaredExceptionLogging = builder.declaredExceptionLogging;
    this.otherExceptionLogging = builder.otherExceptionLogging;
  }

  public static Builder builder() {
    return new Builder();
  }

  public ConnectionSettings connection() {
    return connection;
  }

  public String bindAddress() {
    return bindAddress;
  }

  public int port() {
    return port;
  }

  /** Where the services are announced, or {@code null}. */
  public ServiceRegistrar registrar() {
    return registrar;
  }

  /** The host announced to clients, or {@code null} to choose one. */
  public String advertisedHost() {
    return advertisedHost;
  }

  /** The port announced to clients, or 0 for the bound one. */
  public int advertisedPort() {
    return advertisedPort;
  }

  public Map<String, String> registrationMetadata() {
    return registrationMetadata;
  }

  /** The implementations given to the builder, in order. */
  public List<ServiceBinding> services() {
    return services;
  }

  /** Where to look for more services. */
  public TypeScan scan() {
    return scan;
  }

  /** The user's executor for implementations, or {@code null}. */
  public Executor executor() {
    return executor;
  }

  /** Whether implementations run on the network threads. */
  public boolean direct() {
    return direct;
  }

  /** Whether the server publishes its reflection service. */
  public boolean reflection() {
    return reflection;
  }

  public int workerThreads() {
    return workerThreads;
  }

  public int maxQueuedCalls() {
    return maxQueuedCalls;
  }

  /**
   * Whether a server on Java {@code javaRelease} that was not told where to run calls runs each on
   * a virtual thread of its own: from {@link #VIRTUAL_THREADS_BY_DEFAULT_FROM} on.
   */
  public static boolean virtualThreadsByDefault(int javaRelease) {
    return javaRelease >= VIRTUAL_THREADS_BY_DEFAULT_FROM;
  }

  /** Whether each call runs on a virtual thread of its own. */
  public boolean virtualThreads() {
    return virtualThreadCalls > 0;
  }

  /** Calls that may run on virtual threads at once; 0 without virtual threads. */
  public int virtualThreadCalls() {
    return virtualThreadCalls;
  }

  public int maxMetadataBytes() {
    return maxMetadataBytes;
  }

  public Duration shutdownGracePeriod() {
    return shutdownGracePeriod;
  }

  public Duration prefaceTimeout() {
    return prefaceTimeout;
  }

  /** How long a connection lives before the server sends GOAWAY, or {@code null}: for ever. */
  public Duration maxConnectionAge() {
    return maxConnectionAge;
  }

  /** How long calls may go on after that GOAWAY before the connection is closed. */
  public Duration maxConnectionAgeGrace() {
    return maxConnectionAgeGrace;
  }

  public int maxConnections() {
    return maxConnections;
  }

  public Duration idleTimeout() {
    return idleTimeout;
  }

  public List<ServerInterceptor> interceptors() {
    return interceptors;
  }

  /** Told of the calls refused before they ran. */
  public List<RefusalListener> refusalListeners() {
    return refusalListeners;
  }

  public ExceptionLogging declaredExceptionLogging() {
    return declaredExceptionLogging;
  }

  public ExceptionLogging otherExceptionLogging() {
    return otherExceptionLogging;
  }

  /** A configuration being built; every setter checks its value. Not thread-safe. */
  public static final class Builder {
    private final ConnectionSettings.Builder connection = ConnectionSettings.builder();
    private String bindAddress = "0.0.0.0";
    private int port;
    private ServiceRegistrar registrar;
    private String advertisedHost;
    private int advertisedPort;
    private final Map<String, String> registrationMetadata = new LinkedHashMap<>();
    private final List<ServiceBinding> services = new ArrayList<>();
    private TypeScan scan = TypeScan.none();
    private Executor executor;
    private boolean direct;
    private boolean reflection;
    private int workerThreads = DEFAULT_WORKER_THREADS;
    private int maxQueuedCalls = DEFAULT_MAX_QUEUED_CALLS;
    /** 0: no virtual threads. */
    private int virtualThreadCalls;
    /** How the user chose the executor ({@code "executor(...)"}), for errors; null if not. */
    private String executorChoice;
    /** How the user sized the worker pool ({@code "workerThreads(50)"}), for errors, or null. */
    private String poolSetting;
    /** {@code "workerPool()"} if the user chose the worker pool by name, for errors, or null. */
    private String poolChoice;
    private int maxMetadataBytes = 8 * 1024;
    private Duration shutdownGracePeriod = DEFAULT_SHUTDOWN_GRACE_PERIOD;
    private Duration prefaceTimeout = Duration.ofSeconds(10);
    private int maxConnections = 10_000;
    private Duration idleTimeout = Duration.ofMinutes(10);
    private Duration maxConnectionAge;
    private Duration maxConnectionAgeGrace;
    private final List<ServerInterceptor> interceptors = new ArrayList<>();
    private final List<RefusalListener> refusalListeners = new ArrayList<>();
    private ExceptionLogging declaredExceptionLogging = ExceptionLogging.at(Level.DEBUG);
    private ExceptionLogging otherExceptionLogging = ExceptionLogging.withStackTrace(Level.WARN);

    private Builder() {}

    /** The settings client and server share (threads, transport, TLS, limits). */
    public ConnectionSettings.Builder connection() {
      return connection;
    }

    public void exceptionLogging(ExceptionLogging declared, ExceptionLogging other) {
      this.declaredExceptionLogging = Objects.requireNonNull(declared, "declared");
      this.otherExceptionLogging = Objects.requireNonNull(other, "other");
    }

    public void maxConnections(int maxConnections) {
      this.maxConnections = Checks.atLeast(maxConnections, 1, "maxConnections");
    }

    public void maxConnectionAge(Duration age, Duration grace) {
      this.maxConnectionAge = Checks.positive(age, "maxConnectionAge");
      this.maxConnectionAgeGrace = Checks.nonNegative(grace, "maxConnectionAgeGrace");
    }

    public void idleTimeout(Duration idleTimeout) {
      this.idleTimeout = Checks.positive(idleTimeout, "idleTimeout");
    }

    public void tls(TlsConfig tls) {
      Objects.requireNonNull(tls, "tls");
      if (!tls.isServer()) {
        throw new IllegalArgumentException("tls: a client configuration (expected: TlsConfig.server(...))");
      }
      connection.tls(tls);
    }

    public void intercept(ServerInterceptor interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
    }

    public void refusalListener(RefusalListener listener) {
      refusalListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void registrar(ServiceRegistrar registrar) {
      this.registrar = Objects.requireNonNull(registrar, "registrar");
    }

    public void advertise(String host) {
      Objects.requireNonNull(host, "host");
      ServiceEndpoint.of(host, 1); // checks the host
      this.advertisedHost = host;
    }

    public void advertise(String host, int port) {
      ServiceEndpoint.of(Objects.requireNonNull(host, "host"), port); // checks both
      this.advertisedHost = host;
      this.advertisedPort = port;
    }

    public void registrationMetadata(String key, String value) {
      if (Registration.INSTANCE_KEY.equals(key)) {
        throw new IllegalArgumentException(
            "registrationMetadata: '" + Registration.INSTANCE_KEY + "' is set by the server (a new"
                + " id at each start)");
      }
      Map<String, String> check = new LinkedHashMap<>(registrationMetadata);
      check.put(key, value);
      ServiceEndpoint.of("localhost", 1, check); // checks key and value
      registrationMetadata.put(key, value);
    }

    public void bindAddress(String bindAddress) {
      this.bindAddress = Objects.requireNonNull(bindAddress, "bindAddress");
    }

    public void port(int port) {
      this.port = Checks.port(port, "port");
    }

    /** Publishes {@code implementation} as {@code name}, or under its annotation's if null. */
    public void service(String name, Object implementation) {
      Objects.requireNonNull(implementation, "implementation");
      services.add(new ServiceBinding(name, implementation, implementation.getClass(), List.of()));
    }

    /**
     * Publishes {@code implementation} as {@code name} with the methods of {@code interfaces}, its
     * model read from {@code describedBy}.
     */
    public void service(
        String name, Object implementation, Class<?> describedBy, List<Class<?>> interfaces) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(implementation, "implementation");
      Objects.requireNonNull(describedBy, "implementationClass");
      if (interfaces.isEmpty()) {
        throw new IllegalArgumentException(
            "serviceInterfaces of '" + name + "': none given (expected: at least one)");
      }
      for (Class<?> serviceInterface : interfaces) {
        if (!Objects.requireNonNull(serviceInterface, "serviceInterface").isInstance(implementation)) {
          throw new IllegalArgumentException(
              "the implementation of '" + name + "' (" + implementation.getClass().getName()
                  + ") does not implement " + serviceInterface.getName());
        }
      }
      services.add(new ServiceBinding(name, implementation, describedBy, interfaces));
    }

    public void scan(String... packages) {
      scan = scan.andPackages(packages);
    }

    public void classLoader(ClassLoader classLoader) {
      scan = scan.withClassLoader(classLoader);
    }

    public void executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      this.direct = false;
      this.executorChoice = "executor(...)";
    }

    public void directExecutor() {
      this.direct = true;
      this.executor = null;
      this.executorChoice = "directExecutor()";
    }

    /** Runs each call on a virtual thread of its own, at most {@code maxCalls} at once. */
    public void virtualThreads(int maxCalls) {
      this.virtualThreadCalls = Checks.atLeast(maxCalls, 1, "maxCallsInFlight");
    }

    public void reflection(boolean reflection) {
      this.reflection = reflection;
    }

    /** Runs calls on the server's own pool of platform threads, whatever the Java release. */
    public void workerPool() {
      this.poolChoice = "workerPool()";
    }

    public void workerThreads(int workerThreads) {
      this.workerThreads = Checks.atLeast(workerThreads, 1, "workerThreads");
      this.poolSetting = "workerThreads(" + workerThreads + ")";
    }

    public void maxQueuedCalls(int maxQueuedCalls) {
      this.maxQueuedCalls = Checks.atLeast(maxQueuedCalls, 1, "maxQueuedCalls");
      this.poolSetting = "maxQueuedCalls(" + maxQueuedCalls + ")";
    }

    public void maxMetadataBytes(int maxMetadataBytes) {
      this.maxMetadataBytes = Checks.atLeast(maxMetadataBytes, 0, "maxMetadataBytes");
    }

    public void shutdownGracePeriod(Duration shutdownGracePeriod) {
      this.shutdownGracePeriod = Checks.nonNegative(shutdownGracePeriod, "shutdownGracePeriod");
    }

    public void prefaceTimeout(Duration prefaceTimeout) {
      this.prefaceTimeout = Checks.nonNegative(prefaceTimeout, "prefaceTimeout");
    }

    public ServerConfig build() {
      if (virtualThreadCalls > 0) {
        checkVirtualThreadsAlone();
      }
      ServerConfig built = new ServerConfig(this);
      String inProcess = built.connection().inProcessName();
      if (inProcess != null && registrar != null) {
        throw new IllegalArgumentException(
            "registrar(...) and inProcess(\"" + inProcess + "\") cannot be combined: clients"
                + " in other processes could not reach an in-process server");
      }
      return built;
    }

    /**
     * The calls that may run on virtual threads at once: as the user chose, else {@link
     * #DEFAULT_VIRTUAL_THREAD_CALLS} when nothing chose where calls run and this JVM runs them on
     * virtual threads by default ({@link #virtualThreadsByDefault(int)}), else 0 (the pool).
     */
    private int virtualThreadCallsToUse() {
      if (virtualThreadCalls > 0) {
        return virtualThreadCalls;
      }
      boolean unchosen = executorChoice == null && poolSetting == null && poolChoice == null;
      return unchosen
              && VirtualThreads.supported()
              && virtualThreadsByDefault(Runtime.version().feature())
          ? DEFAULT_VIRTUAL_THREAD_CALLS
          : 0;
    }

    /** Virtual threads exclude every other choice of where calls run and the pool's sizes. */
    private void checkVirtualThreadsAlone() {
      String chosen =
          virtualThreadCalls == DEFAULT_VIRTUAL_THREAD_CALLS
              ? "virtualThreads()"
              : "virtualThreads(" + virtualThreadCalls + ")";
      String other = executorChoice != null ? executorChoice : poolChoice;
      if (other != null) {
        throw new IllegalArgumentException(
            chosen + " and " + other + " cannot be combined: each chooses where calls run; keep"
                + " one");
      }
      if (poolSetting != null) {
        throw new IllegalArgumentException(
            chosen + " and " + poolSetting + " cannot be combined: every call runs on a virtual"
                + " thread of its own, started at once, so there is no worker pool to size or"
                + " queue; limit the calls in flight with virtualThreads(maxCallsInFlight)");
      }
    }
  }
}
