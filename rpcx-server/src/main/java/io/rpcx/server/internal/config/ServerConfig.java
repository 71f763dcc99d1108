package io.rpcx.server.internal.config;

import io.rpcx.core.discovery.ServiceRegistrar;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.config.TypeScan;
import io.rpcx.server.ExceptionLogging;
import io.rpcx.server.RefusalListener;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.server.http.HttpService;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Everything a server was configured with, as {@code RpcxServer.Builder} checked it: what the
 * server's parts read. Immutable; the collections are copied.
 *
 * @param connection the settings client and server share (threads, transport, TLS, limits)
 * @param registrar where the services are announced, or {@code null}
 * @param advertisedHost the host announced to clients, or {@code null} to choose one
 * @param advertisedPort the port announced to clients, or 0 for the bound one
 * @param registrationMetadata metadata registered with the server's address, in the order given
 * @param services the implementations given to the builder, in order
 * @param scan where to look for more services
 * @param executor the user's executor for implementations, or {@code null}
 * @param direct whether implementations run on the network threads
 * @param nonBlockingOnEventLoop whether methods that never block (asynchronous or
 *     {@code @NonBlocking}) run on the network threads
 * @param blockedEventLoopThreshold how long a call may hold a network thread before it is logged;
 *     zero: never
 * @param reflection whether the server publishes RPCX's reflection service
 * @param grpc whether the server's port answers gRPC beside RPCX
 * @param grpcHealth whether gRPC's standard health service answers
 * @param grpcReflection whether gRPC's standard reflection service answers
 * @param http what serves HTTP requests beside RPCX and gRPC, or {@code null}: none
 * @param httpPort the port of the HTTP side alone, or {@code -1}: the server's port
 * @param virtualThreadCalls calls that may run on virtual threads at once; 0 without virtual
 *     threads
 * @param maxConnections connections that sent their preface, open at once
 * @param maxHandshakingConnections connections accepted and not yet through their handshake (TLS
 *     and the RPCX preface), at once
 * @param maxHandshakingConnectionsPerAddress the same, from one IP address
 * @param maxConnectionAge how long a connection lives before the server sends GOAWAY, or {@code
 *     null}: for ever
 * @param maxConnectionAgeGrace how long calls may go on after that GOAWAY before the connection is
 *     closed
 * @param refusalListeners told of the calls refused before they ran
 * @param sendStackTraces whether a REMOTE_FAILURE carries the stack trace of what was thrown
 */
public record ServerConfig(
    ConnectionSettings connection,
    String bindAddress,
    int port,
    ServiceRegistrar registrar,
    String advertisedHost,
    int advertisedPort,
    Map<String, String> registrationMetadata,
    List<ServiceBinding> services,
    TypeScan scan,
    Executor executor,
    boolean direct,
    boolean nonBlockingOnEventLoop,
    Duration blockedEventLoopThreshold,
    boolean reflection,
    boolean grpc,
    boolean grpcHealth,
    boolean grpcReflection,
    HttpService http,
    int httpPort,
    int workerThreads,
    int maxQueuedCalls,
    int virtualThreadCalls,
    int maxMetadataBytes,
    Duration shutdownGracePeriod,
    Duration prefaceTimeout,
    int maxConnections,
    int maxHandshakingConnections,
    int maxHandshakingConnectionsPerAddress,
    Duration idleTimeout,
    Duration maxConnectionAge,
    Duration maxConnectionAgeGrace,
    List<ServerInterceptor> interceptors,
    List<RefusalListener> refusalListeners,
    ExceptionLogging declaredExceptionLogging,
    ExceptionLogging otherExceptionLogging,
    boolean sendStackTraces) {
  /** How long a call may hold a network thread before the server logs it, by default. */
  public static final Duration DEFAULT_BLOCKED_EVENT_LOOP_THRESHOLD = Duration.ofMillis(500);
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

  /**
   * Copies the collections and checks that the settings agree with each other.
   *
   * @throws IllegalArgumentException if a registrar is set for an in-process server
   */
  public ServerConfig {
    if (httpPort >= 0 && http == null) {
      throw new IllegalArgumentException(
          "httpPort(" + httpPort + ") needs an HTTP side to serve: http(...)");
    }
    if (connection.inProcessName() != null && registrar != null) {
      throw new IllegalArgumentException(
          "registrar(...) and inProcess(\"" + connection.inProcessName() + "\") cannot be"
              + " combined: clients in other processes could not reach an in-process server");
    }
    registrationMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(registrationMetadata));
    services = List.copyOf(services);
    interceptors = List.copyOf(interceptors);
    refusalListeners = List.copyOf(refusalListeners);
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
}
