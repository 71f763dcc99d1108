package io.rpcx.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.ServiceRegistrar;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.config.Checks;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.config.TypeScan;
import io.rpcx.core.internal.runtime.RuntimeCompatibility;
import io.rpcx.core.internal.runtime.VirtualThreads;
import io.rpcx.core.internal.transport.InProcess;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.config.ServiceBinding;
import io.rpcx.server.internal.dispatch.CallTracker;
import io.rpcx.server.internal.dispatch.EventLoopWatch;
import io.rpcx.server.internal.dispatch.ExceptionLog;
import io.rpcx.server.internal.dispatch.PublishedServices;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import io.rpcx.server.internal.dispatch.ServiceInstances;
import io.rpcx.server.internal.dispatch.Workers;
import io.rpcx.server.internal.registration.Registration;
import io.rpcx.server.internal.grpc.GrpcRoutes;
import io.rpcx.server.internal.transport.HttpSide;
import io.rpcx.server.internal.transport.ServerTransport;
import io.rpcx.server.http.HttpService;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
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
 * <p>Implementation code that may block runs on the server's executor: by default, on Java 24 and
 * later, a virtual thread per call ({@link Builder#virtualThreads()}), and before Java 24 a pool
 * of worker threads ({@link Builder#workerPool()}); either can be chosen by name (virtual threads
 * from Java 21). Methods that never block (those returning {@code CompletableFuture} or {@code
 * CompletionStage}, and those annotated {@link io.rpcx.annotation.NonBlocking}) run on the network
 * thread that read their request, with no hand-off ({@link Builder#nonBlockingOnEventLoop}), and
 * so do their interceptors; {@link io.rpcx.annotation.Blocking} keeps a method, or every method of
 * an interceptor's server, on the executor; {@link Builder#directExecutor()} runs every method on
 * the network threads. Implementation code must be thread-safe: calls arrive concurrently.
 *
 * <p>Lifecycle: {@link #start()} once; {@link #stop()} stops accepting connections, tells connected
 * clients to go away, lets calls in flight finish within the grace period, then closes everything.
 * A stopped server cannot be restarted. Instances are thread-safe.
 */
public final class RpcxServer implements AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(RpcxServer.class);

  /** Default largest frame accepted: 16 MiB. */
  public static final int DEFAULT_MAX_FRAME_SIZE = ConnectionSettings.DEFAULT_MAX_FRAME_SIZE;
  /**
   * Metadata key of the random id a server registers each time it starts, by which clients tell a
   * restarted server from the one that had its address before.
   */
  public static final String INSTANCE_KEY = Registration.INSTANCE_KEY;

  /** Default grace period of {@link #stop()}: 10 seconds. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(10);

  private enum State {
    NEW,
    RUNNING,
    STOPPING,
    TERMINATED
  }

  private final ServerConfig config;
  private final PublishedServices services;
  private final CallTracker tracker = new CallTracker();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Workers workers;
  /** Logs calls that hold a network thread too long. */
  private final EventLoopWatch watch;
  private State state = State.NEW;
  private ServerTransport transport;
  /** What gRPC answers, or null when the port serves RPCX only. */
  private GrpcRoutes grpcRoutes;
  /** Set once the server started; read by {@link #stats()} from any thread. */
  private volatile RequestDispatcher dispatcher;
  /** The bound address: an {@link InetSocketAddress}, or an in-process one. */
  private SocketAddress address;
  private Registration registration;

  private RpcxServer(ServerConfig config, PublishedServices services) {
    this.config = config;
    this.services = services;
    this.workers = Workers.of(config);
    this.watch = EventLoopWatch.of(config.blockedEventLoopThreshold());
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
    try {
      dispatcher =
          new RequestDispatcher(
              services,
              workers.executor(),
              watch,
              tracker,
              config.maxMetadataBytes(),
              config.connection().maxNestingDepth(),
              config.interceptors(),
              ExceptionLog.of(config.declaredExceptionLogging(), config.otherExceptionLogging()),
              config.refusalListeners(),
              config.connection().maxStreamWindow(),
              config.connection().maxStreamBufferedBytes(),
              config.sendStackTraces());
      grpcRoutes =
          config.grpc() && config.connection().inProcessName() == null
              ? GrpcRoutes.of(services.models(), config.grpcHealth(), config.grpcReflection())
              : null;
      HttpSide http =
          config.http() != null && config.connection().inProcessName() == null
              ? new HttpSide(
                  config.http().start(services.describe()),
                  Checks.atLeast(config.http().maxRequestBytes(), 1, "maxRequestBytes"),
                  config.httpPort())
              : null;
      transport = new ServerTransport(config, dispatcher, grpcRoutes, http);
      address = transport.bind(config.bindAddress(), config.port());
      state = State.RUNNING;
      logger.info(
          "RPCX server listening on {} ({}), services: {}",
          address,
          transport.transportName(),
          String.join(", ", services.serviceNames()));
      if (config.registrar() != null) {
        registration =
            Registration.register(
                config.registrar(), services.serviceNames(), (InetSocketAddress) address,
                config.advertisedHost(),
                config.advertisedPort(), config.registrationMetadata());
      }
    } catch (RuntimeException e) {
      terminate(System.nanoTime());
      throw e;
    }
    return this;
  }

  /**
   * The port the server listens on; the real one when it was built with port 0.
   *
   * @throws IllegalStateException if the server was never started, or it serves in-process
   *     ({@link Builder#inProcess}) and so has no port
   */
  public synchronized int port() {
    if (address == null) {
      throw new IllegalStateException("the server has not been started");
    }
    if (!(address instanceof InetSocketAddress inet)) {
      throw new IllegalStateException(
          "the server serves in-process as '" + config.connection().inProcessName()
              + "' and has no port");
    }
    return inet.getPort();
  }

  /**
   * The port the HTTP side ({@link Builder#http}) is served on: its own ({@link
   * Builder#httpPort}), the real one when it was built with port 0, else the server's.
   *
   * @throws IllegalStateException if the server was never started, or serves no HTTP
   */
  public synchronized int httpPort() {
    if (config.http() == null) {
      throw new IllegalStateException("the server serves no HTTP: build it with http(...)");
    }
    if (transport == null) {
      throw new IllegalStateException("the server has not been started");
    }
    SocketAddress own = transport.httpAddress();
    return own instanceof InetSocketAddress inet ? inet.getPort() : port();
  }

  /** The published service names, sorted. */
  public List<String> services() {
    return services.serviceNames();
  }

  /** Whether the server is started and not stopping. */
  public synchronized boolean isRunning() {
    return state == State.RUNNING;
  }

  /** Calls accepted and not answered yet. */
  public int callsInFlight() {
    return tracker.inFlight();
  }

  /**
   * Client connections currently open that sent their preface: those {@link
   * Builder#maxConnections} counts. Connections still in their handshake are not among them.
   */
  public synchronized int connectionCount() {
    return transport == null ? 0 : transport.connectionCount();
  }

  private synchronized ServerTransport transport() {
    return transport;
  }

  /** What the server is doing, read live: connections, calls in flight and queued, refusals. */
  public ServerStats stats() {
    return new ServerStats() {
      @Override
      public int openConnections() {
        return connectionCount();
      }

      @Override
      public int handshakingConnections() {
        ServerTransport current = transport();
        return current == null ? 0 : current.handshakingCount();
      }

      @Override
      public long refusedConnections() {
        ServerTransport current = transport();
        return current == null ? 0 : current.refusedConnections();
      }

      @Override
      public int callsInFlight() {
        return tracker.inFlight();
      }

      @Override
      public int queuedCalls() {
        return workers.queuedCalls();
      }

      @Override
      public long refusedCalls() {
        RequestDispatcher current = dispatcher;
        return current == null ? 0 : current.refusedCalls();
      }
    };
  }

  /** Stops the server gracefully, waiting at most the builder's grace period (default 10 s). */
  public void stop() {
    stop(config.shutdownGracePeriod());
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
        terminate(System.nanoTime());
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
    long start = System.nanoTime();
    long deadline = start + gracePeriod.toNanos();
    int callsAtStop = tracker.inFlight();
    int callsCutOff = 0;
    boolean interrupted = false;
    try {
      if (registration != null) {
        registration.withdraw(); // clients stop choosing this server; GOAWAY moves the rest
      }
      if (grpcRoutes != null && grpcRoutes.health() != null) {
        grpcRoutes.health().stopServing(); // health watchers and probes see NOT_SERVING first
      }
      // GOAWAY first: once the port refuses, calls on open connections are refused as well.
      transport.goAwayAll("the server is shutting down");
      transport.stopAccepting();
      boolean idle = tracker.awaitIdle(deadline);
      boolean closedByClients = transport.awaitConnectionsClosed(deadline);
      if (!idle) {
        callsCutOff = tracker.inFlight();
        logger.warn(
            "Grace period of {} ms ended with {} calls still running; closing connections",
            gracePeriod.toMillis(),
            callsCutOff);
      } else if (!closedByClients) {
        // Those still in their handshake too: the stop waited for them as well.
        logger.info("Closing {} connections that stayed open after shutdown was announced",
            transport.connectionCount() + transport.handshakingCount());
      }
    } catch (InterruptedException e) {
      interrupted = true;
    } finally {
      terminate(deadline);
      logger.info(
          "RPCX server on {} stopped in {} ms: {}",
          address,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
          interrupted ? "interrupted while waiting for its calls in flight"
              : drained(callsAtStop, callsCutOff, gracePeriod));
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** What a stop waited for, for its log line: the calls in flight when it began, and how they ended. */
  private static String drained(int callsAtStop, int callsCutOff, Duration gracePeriod) {
    if (callsAtStop == 0 && callsCutOff == 0) {
      return "no calls were in flight";
    }
    String waited = "waited for " + callsAtStop + (callsAtStop == 1 ? " call" : " calls")
        + " in flight";
    return callsCutOff == 0
        ? waited + ", all finished"
        : waited + "; " + callsCutOff + " still running when the grace period of "
            + gracePeriod.toMillis() + " ms ended";
  }

  /**
   * The end of every way a server stops (a stop, a failed start or registration): closes what
   * is open, lets the server's own workers finish until {@code deadlineNanos}, and releases those
   * waiting for termination.
   */
  private void terminate(long deadlineNanos) {
    ServerTransport open;
    synchronized (this) {
      open = transport;
    }
    if (open != null) {
      open.closeAll();
      open.shutdownEventLoops();
    }
    workers.shutdown(Math.max(0, deadlineNanos - System.nanoTime()));
    watch.close();
    synchronized (this) {
      state = State.TERMINATED;
    }
    terminated.countDown();
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

  /**
   * Configures and builds an {@link RpcxServer}. Not thread-safe; every setter checks its value at
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
    private boolean nonBlockingOnEventLoop = true;
    private Duration blockedEventLoopThreshold = ServerConfig.DEFAULT_BLOCKED_EVENT_LOOP_THRESHOLD;
    private boolean reflection;
    private boolean grpc = true;
    private boolean grpcHealth = true;
    private boolean grpcReflection = true;
    private HttpService http;
    private int httpPort = -1;
    private int workerThreads = ServerConfig.DEFAULT_WORKER_THREADS;
    private int maxQueuedCalls = ServerConfig.DEFAULT_MAX_QUEUED_CALLS;
    /** 0: no virtual threads chosen. */
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
    private int maxHandshakingConnections = 1_000;
    private int maxHandshakingConnectionsPerAddress = 100;
    private Duration idleTimeout = Duration.ofMinutes(10);
    private Duration maxConnectionAge;
    private Duration maxConnectionAgeGrace;
    private final List<ServerInterceptor> interceptors = new ArrayList<>();
    private final List<RefusalListener> refusalListeners = new ArrayList<>();
    private ExceptionLogging declaredExceptionLogging = ExceptionLogging.at(Level.DEBUG);
    private ExceptionLogging otherExceptionLogging = ExceptionLogging.withStackTrace(Level.WARN);
    private boolean sendStackTraces;

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
     * Whether the failure of a call that threw carries the stack trace of what the implementation
     * (or an interceptor) threw: its 256 innermost frames, without its causes'. The caller's
     * exception, the declared one rebuilt or the {@code RemoteFailureException}, then shows the
     * server's frames before its own, as Java RMI shows a remote exception. A trace that would
     * pass the frame limit is left out (logged), never the exception's fields. Default false: a
     * stack trace shows the server's code to every client, so it stays on the server unless asked
     * for, in development and tests.
     */
    public Builder sendStackTraces(boolean sendStackTraces) {
      this.sendStackTraces = sendStackTraces;
      return this;
    }

    /**
     * Connections the server keeps open at once, counted from when they sent a valid preface;
     * one more is told why (GOAWAY with RESOURCE_EXHAUSTED) and closed, its calls refused as not
     * processed. Connections still in their handshake hold no place here (see {@link
     * #maxHandshakingConnections}): sockets that never speak cannot lock clients out. Default
     * 10,000.
     */
    public Builder maxConnections(int maxConnections) {
      this.maxConnections = Checks.atLeast(maxConnections, 1, "maxConnections");
      return this;
    }

    /**
     * Connections accepted and not yet through their handshake (TLS, then the RPCX preface), at
     * once; one more is closed as soon as it is accepted, before anything is read from it, and
     * logged (a WARN line per 10 s at most, counting the others). Each has {@link
     * #prefaceTimeout} to finish. Default 1,000.
     */
    public Builder maxHandshakingConnections(int maxConnections) {
      this.maxHandshakingConnections =
          Checks.atLeast(maxConnections, 1, "maxHandshakingConnections");
      return this;
    }

    /**
     * Connections from one IP address accepted and not yet through their handshake, at once;
     * one more from that address is closed as soon as it is accepted, as with {@link
     * #maxHandshakingConnections}, so that one host cannot take every handshaking place.
     * Default 100.
     */
    public Builder maxHandshakingConnectionsPerAddress(int maxConnections) {
      this.maxHandshakingConnectionsPerAddress =
          Checks.atLeast(maxConnections, 1, "maxHandshakingConnectionsPerAddress");
      return this;
    }

    /**
     * Calls one connection may have in flight; one more is refused at once with
     * RESOURCE_EXHAUSTED, never queued. A call is in flight from its request's arrival until its
     * reply (or a stream's end) is sent: a client that starts its next call as soon as it reads a
     * reply is never refused for the call that reply ended. Default 10,000.
     */
    public Builder maxConcurrentCallsPerConnection(int maxCalls) {
      this.maxConcurrentCallsPerConnection =
          Checks.atLeast(maxCalls, 1, "maxConcurrentCallsPerConnection");
      return this;
    }

    /**
     * Closes a connection on which nothing arrived for this long while no call was in flight:
     * it sends GOAWAY, and the client closes the connection (a call that crossed the GOAWAY is
     * refused as not processed, and the client retries it on a new connection); if the client
     * has not closed it 5 s later, the server does. RPCX clients ping only connections with
     * calls in flight unless told to ping idle ones too ({@code keepAliveWithoutCalls}). Default
     * 10 minutes.
     */
    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = Checks.positive(idleTimeout, "idleTimeout");
      return this;
    }

    /**
     * Sends GOAWAY on every connection once it is {@code age} old (±10%, so that connections
     * opened together do not all move at once), then closes it after {@code grace} if calls are
     * still running on it. Clients move their next calls to a new connection without failing
     * any: so clients that reach the servers through one address (a TCP load balancer, a
     * Kubernetes ClusterIP Service) spread onto servers added since they connected, and DNS
     * clients look the name up again. Default: connections live for ever.
     *
     * <pre>{@code
     * RpcxServer.builder().maxConnectionAge(Duration.ofMinutes(5), Duration.ofSeconds(30))
     * }</pre>
     */
    public Builder maxConnectionAge(Duration age, Duration grace) {
      Checks.positive(age, "maxConnectionAge");
      this.maxConnectionAgeGrace = Checks.nonNegative(grace, "maxConnectionAgeGrace");
      this.maxConnectionAge = age;
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
      this.maxBufferedInboundBytes = Checks.atLeast(bytes, 1L, "maxBufferedInboundBytes");
      return this;
    }

    /**
     * The window of each stream this server receives (client streams and bidirectional streams; docs/STREAMING.md): the
     * messages it grants the client and has not yet handed to the subscriber, at most. It reads ahead
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
     * The bytes of stream messages per stream this server lets the client have in flight and holds
     * (received, not yet taken by the subscriber): it grants credit only as far as that many of the
     * largest message seen on the stream fit, and none while the messages held take more. A
     * message larger than this still passes, one at a time. Default 4 MiB.
     */
    public Builder maxStreamBufferedBytes(long bytes) {
      this.maxStreamBufferedBytes = Checks.atLeast(bytes, 1L, "maxStreamBufferedBytes");
      return this;
    }

    /** Serves over TLS ({@link TlsConfig#server}), with mutual TLS if it requires client certificates. */
    public Builder tls(TlsConfig tls) {
      Objects.requireNonNull(tls, "tls");
      if (!tls.isServer()) {
        throw new InvalidSettingException(
            "tls", tls, "a client configuration", "TlsConfig.server(...)");
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
     * Adds a listener told of every call refused before the interceptors run: unknown methods,
     * overload, a server going away, callers whose timeout passed before the call could start.
     */
    public Builder refusalListener(RefusalListener listener) {
      refusalListeners.add(Objects.requireNonNull(listener, "listener"));
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
        throw new InvalidSettingException(
            "registrationMetadata",
            key,
            "a key other than '" + INSTANCE_KEY + "', which the server sets to a new id at each"
                + " start");
      }
      Map<String, String> check = new LinkedHashMap<>(registrationMetadata);
      check.put(key, value);
      ServiceEndpoint.of("localhost", 1, check); // checks key, value and their number
      registrationMetadata.put(key, value);
      return this;
    }

    /** The local address to listen on; default {@code 0.0.0.0} (all interfaces). */
    public Builder bindAddress(String bindAddress) {
      this.bindAddress = Objects.requireNonNull(bindAddress, "bindAddress");
      return this;
    }

    /**
     * Serves clients of this JVM only, under {@code name} instead of a port: clients built with
     * {@code RpcxClient.builder().inProcess(name)} reach it through Netty's local channels, with the same framing, SCHEMA
     * frames and codecs as over TCP. For tests: the whole stack, no network. The name is unique in
     * the JVM while the server runs: starting a second server of that name fails, naming it. The
     * bind address and port are ignored, {@link RpcxServer#port()} throws, and neither TLS nor a
     * registrar can be combined with it ({@link #build()} fails).
     */
    public Builder inProcess(String name) {
      this.inProcessName = InProcess.checkName(name);
      return this;
    }

    /** The port to listen on; 0 (the default) picks a free one, which {@link #port()} reports. */
    public Builder port(int port) {
      this.port = Checks.port(port, "port");
      return this;
    }

    /** Publishes {@code implementation}, whose class is annotated {@link RPCXServer}. */
    public Builder service(Object implementation) {
      return publish(null, implementation);
    }

    /** Publishes {@code implementation} as {@code name}, whether or not its class is annotated. */
    public Builder service(String name, Object implementation) {
      return publish(Objects.requireNonNull(name, "name"), implementation);
    }

    /** Publishes {@code implementation} as {@code name}, or under its annotation's if null. */
    private Builder publish(String name, Object implementation) {
      Objects.requireNonNull(implementation, "implementation");
      services.add(new ServiceBinding(name, implementation, implementation.getClass(), List.of()));
      return this;
    }

    /**
     * Publishes {@code implementation} as {@code name} with the methods of {@code
     * serviceInterfaces} only, reading its annotations ({@code @Method}, {@code @Idempotent},
     * {@code @OwnDeadline}) from {@code implementationClass}. For an implementation behind a proxy
     * (Spring AOP, a decorator), whose own class carries neither the annotations nor only the
     * service's interfaces, and for a class that also implements interfaces that are not part of
     * the service ({@code InitializingBean}, say):
     *
     * <pre>{@code
     * builder.service("orders", transactionalProxy, OrderServiceImpl.class, OrderService.class);
     * }</pre>
     *
     * @throws IllegalArgumentException if no interface is given, or {@code implementation} does
     *     not implement one of them
     */
    public Builder service(
        String name,
        Object implementation,
        Class<?> implementationClass,
        Class<?>... serviceInterfaces) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(implementation, "implementation");
      Objects.requireNonNull(implementationClass, "implementationClass");
      if (serviceInterfaces.length == 0) {
        throw new InvalidSettingException(
            "serviceInterfaces of '" + name + "'", List.of(), "none given", "at least one");
      }
      for (Class<?> serviceInterface : serviceInterfaces) {
        Objects.requireNonNull(serviceInterface, "serviceInterface");
        if (!serviceInterface.isInstance(implementation)) {
          throw new IllegalArgumentException(
              "the implementation of '" + name + "' (" + implementation.getClass().getName()
                  + ") does not implement " + serviceInterface.getName());
        }
      }
      services.add(
          new ServiceBinding(
              name, implementation, implementationClass, List.of(serviceInterfaces)));
      return this;
    }

    /**
     * Publishes every class annotated {@link RPCXServer} in these packages and their subpackages,
     * created through its public no-argument constructor. Works on class directories and jars.
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

    /**
     * Runs implementations on {@code executor}, which the caller owns and shuts down. By default
     * the server runs them on its own pool of {@link #workerThreads(int)} threads. Cannot be
     * combined with {@link #virtualThreads()}.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      this.direct = false;
      this.executorChoice = "executor(...)";
      return this;
    }

    /**
     * Runs every implementation directly on the network threads, {@code @Blocking} or not. Fastest
     * for implementations that never block and finish in microseconds; one blocking call stalls
     * every connection of its thread, so a call holding its thread past {@link
     * #blockedEventLoopThreshold} is logged, and a blocking RPCX call made there fails with {@code
     * BlockingOperationException} (call through a client method returning {@code
     * CompletableFuture}). To run only the methods that never block there, keep the default
     * ({@link #nonBlockingOnEventLoop}). Cannot be combined with {@link #virtualThreads()}.
     */
    public Builder directExecutor() {
      this.direct = true;
      this.executor = null;
      this.executorChoice = "directExecutor()";
      return this;
    }

    /**
     * Whether methods that never block run on the network thread that read their request, without
     * a hand-off to the executor and back (default {@code true}): methods returning {@code
     * CompletableFuture} or {@code CompletionStage}, and methods annotated {@link
     * io.rpcx.annotation.NonBlocking}, unless annotated {@link io.rpcx.annotation.Blocking} or
     * intercepted by an interceptor whose class is. {@code false} runs every call on the executor,
     * as servers did before this setting existed: for an application whose asynchronous methods
     * still block before they return.
     */
    public Builder nonBlockingOnEventLoop(boolean nonBlockingOnEventLoop) {
      this.nonBlockingOnEventLoop = nonBlockingOnEventLoop;
      return this;
    }

    /**
     * How long implementation code may hold a network thread (a non-blocking method, or any with
     * {@link #directExecutor()}) before the server logs a warning naming the call, the thread and
     * where the code is, since every other call on that thread's connections waits meanwhile; and
     * once more when the thread is released. Default 500 ms; {@link Duration#ZERO} turns the
     * check off. Pauses of the whole JVM (garbage collection) are not counted.
     */
    public Builder blockedEventLoopThreshold(Duration threshold) {
      this.blockedEventLoopThreshold = Checks.nonNegative(threshold, "blockedEventLoopThreshold");
      return this;
    }

    /**
     * Runs each call on a virtual thread of its own (Java 21 or later), named {@code
     * rpcx-server-virtual-n}, instead of the worker pool: implementation code that blocks (on a
     * database, on another RPCX call) holds no platform thread while it waits, so calls are not
     * limited by a number of worker threads. At most 10,200 calls run at once, as many as the
     * default pool accepts (200 running, 10,000 queued); a call beyond that is refused with
     * RESOURCE_EXHAUSTED, "the server is overloaded (all 10200 calls it takes at once are running
     * on virtual threads); service/method was not processed", as the pool refuses calls beyond its
     * threads and queue. {@link #maxConcurrentCallsPerConnection(int)} holds as with any executor,
     * and {@link RpcxServer#stop()} waits for the calls' threads as for the pool's.
     *
     * <p>The default on Java 24 and later, where a virtual thread blocking inside {@code
     * synchronized} no longer pins its carrier (JEP 491), for a server not told where to run calls
     * (no {@link #executor(Executor)}, {@link #directExecutor()}, {@link #workerPool()}, {@link
     * #workerThreads(int)} or {@link #maxQueuedCalls(int)}): measured faster than the pool there
     * (docs/BENCHMARKS.md, "Virtual threads"). On Java 21 to 23 call it to opt in, knowing that
     * implementation code blocking while it holds a monitor pins a carrier thread for as long.
     *
     * <p>Cannot be combined with {@link #executor(Executor)}, {@link #directExecutor()}, {@link
     * #workerPool()}, {@link #workerThreads(int)} or {@link #maxQueuedCalls(int)}: {@link #build()}
     * fails naming both.
     * Virtual threads are reached through method handles, so RPCX itself stays Java 17 bytecode.
     *
     * @throws UnsupportedOperationException before Java 21: "virtualThreads() needs Java 21 or
     *     later (virtual threads, JEP 444); this JVM is Java 17.0.15 (/usr/lib/jvm/...)"
     */
    public Builder virtualThreads() {
      return virtualThreads(ServerConfig.DEFAULT_VIRTUAL_THREAD_CALLS);
    }

    /**
     * As {@link #virtualThreads()}, with at most {@code maxCallsInFlight} calls running at once
     * over all connections; beyond that calls are refused with RESOURCE_EXHAUSTED.
     *
     * @throws UnsupportedOperationException before Java 21
     * @throws IllegalArgumentException if {@code maxCallsInFlight} is not positive
     */
    public Builder virtualThreads(int maxCallsInFlight) {
      VirtualThreads.require(
          maxCallsInFlight == ServerConfig.DEFAULT_VIRTUAL_THREAD_CALLS
              ? "virtualThreads()"
              : "virtualThreads(" + maxCallsInFlight + ")");
      return runOnVirtualThreads(maxCallsInFlight);
    }

    /**
     * {@link #virtualThreads(int)} without the check of the Java release, so that its rules with
     * the other choices of where calls run are tested on Java 17 too.
     */
    Builder runOnVirtualThreads(int maxCallsInFlight) {
      this.virtualThreadCalls = Checks.atLeast(maxCallsInFlight, 1, "maxCallsInFlight");
      return this;
    }

    /**
     * Whether to publish the reflection service, {@value io.rpcx.core.reflection.ReflectionService#NAME}
     * ({@link io.rpcx.core.reflection.ReflectionService}): it lists this server's services and
     * describes their methods and types, and gives the {@code .proto} files and {@code
     * FileDescriptorSet} of their wire format, for {@code rpcx list/describe/call} and for clients
     * in other languages. It is called like any service, so this server's interceptors (its
     * authentication, say) apply to it. Default off: a server shows its API only when asked to.
     */
    public Builder reflection(boolean reflection) {
      this.reflection = reflection;
      return this;
    }

    /**
     * Whether the port answers gRPC too (default on): a connection that opens with the HTTP/2
     * preface (or, over TLS, negotiates {@code h2} by ALPN) is served as gRPC, so grpc-java,
     * grpcurl, clients in other languages and Kubernetes {@code grpc:} probes call the same
     * services, as the gRPC services of their exported schemas ({@code rpcx proto}); docs/GRPC.md
     * has the mapping. {@code false} serves RPCX's own protocol only. An in-process server has no
     * port and serves no gRPC.
     */
    public Builder grpc(boolean grpc) {
      this.grpc = grpc;
      return this;
    }

    /**
     * Whether gRPC's standard health service, {@code grpc.health.v1.Health}, answers on the gRPC
     * side (default on): {@code Check} and {@code Watch} for the whole server ({@code ""}) and per
     * service, each {@code SERVING} until {@link RpcxServer#stop()} begins, then {@code
     * NOT_SERVING}. Kubernetes {@code grpc:} probes call it.
     */
    public Builder grpcHealth(boolean grpcHealth) {
      this.grpcHealth = grpcHealth;
      return this;
    }

    /**
     * Whether gRPC's standard reflection service, {@code grpc.reflection.v1.ServerReflection} (and
     * {@code v1alpha}), answers on the gRPC side (default on), describing the services by their
     * exported schemas so that {@code grpcurl list}, {@code describe} and calls need no file.
     * Unlike RPCX's own reflection service ({@link #reflection(boolean)}), it is answered by the
     * gRPC side itself, without this server's interceptors (an authentication interceptor does not
     * guard it): it shows the services' shape, never data; turn it off where that shape is
     * private.
     */
    public Builder grpcReflection(boolean grpcReflection) {
      this.grpcReflection = grpcReflection;
      return this;
    }

    /**
     * Serves HTTP beside RPCX and gRPC on the server's port (or on {@link #httpPort(int)}):
     * HTTP/1.1 requests, and HTTP/2 requests that are not gRPC, go to {@code service}, which
     * calls the published methods through this server's dispatcher, interceptors, limits and
     * deadlines ({@link io.rpcx.server.http.HttpExchange#call}). Off by default. Module {@code
     * rpcx-http} serves HTTP/JSON calls, an OpenAPI document and a service console
     * (docs/HTTP.md):
     *
     * <pre>{@code
     * builder.http(RpcxHttp.builder().openApi(true).console(true).build())
     * }</pre>
     *
     * <p>Over TLS ({@link #tls}) HTTP is served over TLS too (ALPN {@code h2} and {@code
     * http/1.1}). An in-process server ({@link #inProcess}) has no port and serves no HTTP.
     */
    public Builder http(HttpService service) {
      this.http = Objects.requireNonNull(service, "service");
      return this;
    }

    /**
     * Serves the HTTP side ({@link #http}) on a port of its own instead of the server's, with the
     * same TLS, limits and interceptors; that port serves HTTP only (HTTP/1.1 and HTTP/2, no gRPC,
     * no RPCX), and the server's port no HTTP. 0 picks a free port, which {@link
     * RpcxServer#httpPort()} reports. Default: the server's port.
     */
    public Builder httpPort(int httpPort) {
      this.httpPort = Checks.port(httpPort, "httpPort");
      return this;
    }

    /**
     * Runs implementations on the server's own pool of platform threads ({@link
     * #workerThreads(int)}, {@link #maxQueuedCalls(int)}): the default before Java 24, chosen here
     * by name on any Java. Setting the pool's sizes chooses it too. Cannot be combined with {@link
     * #virtualThreads()}; {@link #executor(Executor)} or {@link #directExecutor()}, if also set,
     * win (as they do over the pool's sizes).
     */
    public Builder workerPool() {
      this.poolChoice = "workerPool()";
      return this;
    }

    /**
     * Threads of the worker pool; default 200. Choosing the pool's size chooses the pool ({@link
     * #workerPool()}) on Java 24 and later too. Cannot be combined with {@link #virtualThreads()}.
     */
    public Builder workerThreads(int workerThreads) {
      this.workerThreads = Checks.atLeast(workerThreads, 1, "workerThreads");
      this.poolSetting = "workerThreads(" + workerThreads + ")";
      return this;
    }

    /**
     * Calls the worker pool queues when all its threads are busy; beyond that, calls are rejected
     * with RESOURCE_EXHAUSTED. Default 10,000. Chooses the pool ({@link #workerPool()}) on Java 24
     * and later too. Cannot be combined with {@link #virtualThreads()}.
     */
    public Builder maxQueuedCalls(int maxQueuedCalls) {
      this.maxQueuedCalls = Checks.atLeast(maxQueuedCalls, 1, "maxQueuedCalls");
      this.poolSetting = "maxQueuedCalls(" + maxQueuedCalls + ")";
      return this;
    }

    /** Network threads; default the number of processors. */
    public Builder ioThreads(int ioThreads) {
      this.ioThreads = Checks.atLeast(ioThreads, 1, "ioThreads");
      return this;
    }

    /**
     * Largest frame accepted or sent, in bytes; default 16 MiB. A client sending a larger frame is
     * disconnected; a larger result is answered with RESOURCE_EXHAUSTED.
     */
    public Builder maxFrameSize(int maxFrameSize) {
      this.maxFrameSize =
          Checks.atLeast(maxFrameSize, ConnectionSettings.MIN_MAX_FRAME_SIZE, "maxFrameSize");
      return this;
    }

    /** Largest total size of a request's metadata, in bytes; default 8 KiB. */
    public Builder maxMetadataBytes(int maxMetadataBytes) {
      this.maxMetadataBytes = Checks.atLeast(maxMetadataBytes, 0, "maxMetadataBytes");
      return this;
    }

    /** Deepest nesting of messages inside one argument; default 64. */
    public Builder maxNestingDepth(int maxNestingDepth) {
      this.maxNestingDepth = Checks.atLeast(maxNestingDepth, 1, "maxNestingDepth");
      return this;
    }

    /** How long {@link RpcxServer#stop()} lets calls in flight finish; default 10 s. */
    public Builder shutdownGracePeriod(Duration shutdownGracePeriod) {
      this.shutdownGracePeriod = Checks.nonNegative(shutdownGracePeriod, "shutdownGracePeriod");
      return this;
    }

    /**
     * How long a new connection may take from being accepted to sending its preface (with TLS,
     * its TLS handshake included); default 10 s.
     */
    public Builder prefaceTimeout(Duration prefaceTimeout) {
      this.prefaceTimeout = Checks.nonNegative(prefaceTimeout, "prefaceTimeout");
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
     * @throws io.rpcx.core.UnsupportedRuntimeException if the class path holds a protobuf-java or
     *     Netty version RPCX does not run with, naming the library, the version found and the range
     *     supported
     */
    public RpcxServer build() {
      RuntimeCompatibility.check();
      ServerConfig built = config();
      return new RpcxServer(built, ServiceInstances.publish(built));
    }

    /**
     * The configuration.
     *
     * @throws IllegalArgumentException if settings contradict each other
     */
    ServerConfig config() {
      if (virtualThreadCalls > 0) {
        checkVirtualThreadsAlone();
      }
      return new ServerConfig(
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
          bindAddress,
          port,
          registrar,
          advertisedHost,
          advertisedPort,
          registrationMetadata,
          services,
          scan,
          executor,
          direct,
          nonBlockingOnEventLoop,
          blockedEventLoopThreshold,
          reflection,
          grpc,
          grpcHealth,
          grpcReflection,
          http,
          httpPort,
          workerThreads,
          maxQueuedCalls,
          virtualThreadCallsToUse(),
          maxMetadataBytes,
          shutdownGracePeriod,
          prefaceTimeout,
          maxConnections,
          maxHandshakingConnections,
          maxHandshakingConnectionsPerAddress,
          idleTimeout,
          maxConnectionAge,
          maxConnectionAgeGrace,
          interceptors,
          refusalListeners,
          declaredExceptionLogging,
          otherExceptionLogging,
          sendStackTraces);
    }

    /**
     * The calls that may run on virtual threads at once: as the user chose, else {@link
     * ServerConfig#DEFAULT_VIRTUAL_THREAD_CALLS} when nothing chose where calls run and this JVM
     * runs them on virtual threads by default ({@link ServerConfig#virtualThreadsByDefault(int)}),
     * else 0 (the pool).
     */
    private int virtualThreadCallsToUse() {
      if (virtualThreadCalls > 0) {
        return virtualThreadCalls;
      }
      boolean unchosen = executorChoice == null && poolSetting == null && poolChoice == null;
      return unchosen
              && VirtualThreads.supported()
              && ServerConfig.virtualThreadsByDefault(Runtime.version().feature())
          ? ServerConfig.DEFAULT_VIRTUAL_THREAD_CALLS
          : 0;
    }

    /** Virtual threads exclude every other choice of where calls run and the pool's sizes. */
    private void checkVirtualThreadsAlone() {
      String chosen =
          virtualThreadCalls == ServerConfig.DEFAULT_VIRTUAL_THREAD_CALLS
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
