package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.client.LoadBalancing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The {@code rpcx.*} configuration properties. A property left unset keeps RPCX's own default
 * (given in each description); values are checked when the client or server is created, and a bad
 * one fails the start naming the property and the values it accepts.
 */
@ConfigurationProperties("rpcx")
public class RpcxProperties {
  private final Client client = new Client();
  private final Server server = new Server();
  private final ZooKeeper zookeeper = new ZooKeeper();
  private final Observations observations = new Observations();

  /** The client that {@code @EnableRpcxClients} interfaces call through. */
  public Client getClient() {
    return client;
  }

  /** The server that publishes the application's {@code @RPCXServer} beans. */
  public Server getServer() {
    return server;
  }

  /** Service discovery and registration through Apache ZooKeeper. */
  public ZooKeeper getZookeeper() {
    return zookeeper;
  }

  /** Metrics and tracing of calls through the application's ObservationRegistry. */
  public Observations getObservations() {
    return observations;
  }

  /** The {@code rpcx.client.*} properties. */
  public static class Client {
    /** Timeout of the calls whose interface and method set none. Default 5s. */
    private Duration defaultTimeout;

    /** How long opening a connection and its handshake may take. Default 3s. */
    private Duration connectTimeout;

    /**
     * The server of every service that has no targets of its own, as host:port (grpc://host:port
     * for a gRPC server); overrides the address in @RPCXClient. Not with rpcx.zookeeper.
     */
    private String target;

    /** How calls are spread over the servers of a service. Default least-in-flight. */
    private LoadBalancing loadBalancing;

    /**
     * Attempts per call, the first included: calls that certainly did not run, or whose method is
     * @Idempotent, are tried again on another server. Default 3.
     */
    private Integer maxAttempts;

    /** Sent as "authorization: Bearer <token>" with every call. */
    private String bearerToken;

    /** Metadata sent with every call. */
    private Map<String, String> metadata = new LinkedHashMap<>();

    /** Largest frame sent or accepted. Default 16MB. */
    private DataSize maxFrameSize;

    /**
     * Stream messages granted and not yet taken per stream this side receives (the credit
     * window: how far it reads ahead of the subscriber, docs/STREAMING.md). Default 1024.
     */
    private Integer maxStreamWindow;

    /**
     * Bytes of received stream messages held per stream above which no more credit is granted.
     * Default 4MB.
     */
    private DataSize maxStreamBufferedBytes;

    /** Network threads. Default the number of processors. */
    private Integer ioThreads;

    /** Per service, by the name it is published under (@RPCXClient name). */
    private Map<String, Service> services = new LinkedHashMap<>();

    private final ClientSsl ssl = new ClientSsl();

    public Duration getDefaultTimeout() {
      return defaultTimeout;
    }

    public void setDefaultTimeout(Duration defaultTimeout) {
      this.defaultTimeout = defaultTimeout;
    }

    public Duration getConnectTimeout() {
      return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
    }

    public String getTarget() {
      return target;
    }

    public void setTarget(String target) {
      this.target = target;
    }

    public LoadBalancing getLoadBalancing() {
      return loadBalancing;
    }

    public void setLoadBalancing(LoadBalancing loadBalancing) {
      this.loadBalancing = loadBalancing;
    }

    public Integer getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public String getBearerToken() {
      return bearerToken;
    }

    public void setBearerToken(String bearerToken) {
      this.bearerToken = bearerToken;
    }

    public Map<String, String> getMetadata() {
      return metadata;
    }

    public void setMetadata(Map<String, String> metadata) {
      this.metadata = metadata;
    }

    public DataSize getMaxFrameSize() {
      return maxFrameSize;
    }

    public void setMaxFrameSize(DataSize maxFrameSize) {
      this.maxFrameSize = maxFrameSize;
    }

    public Integer getMaxStreamWindow() {
      return maxStreamWindow;
    }

    public void setMaxStreamWindow(Integer maxStreamWindow) {
      this.maxStreamWindow = maxStreamWindow;
    }

    public DataSize getMaxStreamBufferedBytes() {
      return maxStreamBufferedBytes;
    }

    public void setMaxStreamBufferedBytes(DataSize maxStreamBufferedBytes) {
      this.maxStreamBufferedBytes = maxStreamBufferedBytes;
    }

    public Integer getIoThreads() {
      return ioThreads;
    }

    public void setIoThreads(Integer ioThreads) {
      this.ioThreads = ioThreads;
    }

    public Map<String, Service> getServices() {
      return services;
    }

    public void setServices(Map<String, Service> services) {
      this.services = services;
    }

    /** TLS to the servers. */
    public ClientSsl getSsl() {
      return ssl;
    }
  }

  /** The {@code rpcx.client.services.<name>.*} properties of one service. */
  public static class Service {
    /**
     * The servers of this service, each host:port (grpc://host:port for a gRPC server); overrides
     * rpcx.client.target and discovery.
     */
    private List<String> targets = new ArrayList<>();

    /** How calls to this service are spread over its servers. */
    private LoadBalancing loadBalancing;

    public List<String> getTargets() {
      return targets;
    }

    public void setTargets(List<String> targets) {
      this.targets = targets;
    }

    public LoadBalancing getLoadBalancing() {
      return loadBalancing;
    }

    public void setLoadBalancing(LoadBalancing loadBalancing) {
      this.loadBalancing = loadBalancing;
    }
  }

  /** The {@code rpcx.server.*} properties. */
  public static class Server {
    /** Whether to publish the @RPCXServer beans of the application. */
    private boolean enabled = true;

    /** The port to listen on; 0 picks a free one, published as local.rpcx.server.port. */
    private int port = 9000;

    /** The address to listen on. Default all addresses (0.0.0.0). */
    private String bindAddress;

    /**
     * Threads that run calls. Default 200; with spring.threads.virtual.enabled on Java 21 or
     * later, each call runs on a virtual thread instead.
     */
    private Integer workerThreads;

    /** Calls waiting for a worker thread before calls are refused. Default 10000. */
    private Integer maxQueuedCalls;

    /**
     * Client connections that sent their preface before new ones are refused. Default 10000.
     */
    private Integer maxConnections;

    /**
     * Connections accepted and not yet through their handshake (TLS, the RPCX preface) before
     * new ones are closed on arrival; they do not count against max-connections. Default 1000.
     */
    private Integer maxHandshakingConnections;

    /**
     * The same, from one IP address, so that one host cannot take every handshaking place.
     * Default 100.
     */
    private Integer maxHandshakingConnectionsPerAddress;

    /** Calls in flight on one connection before calls are refused. Default 10000. */
    private Integer maxConcurrentCallsPerConnection;

    /** Largest frame sent or accepted. Default 16MB. */
    private DataSize maxFrameSize;

    /**
     * Stream messages granted and not yet taken per stream this side receives (the credit
     * window: how far it reads ahead of the subscriber, docs/STREAMING.md). Default 1024.
     */
    private Integer maxStreamWindow;

    /**
     * Bytes of received stream messages held per stream above which no more credit is granted.
     * Default 4MB.
     */
    private DataSize maxStreamBufferedBytes;

    /** Largest metadata of one request. Default 8KB. */
    private DataSize maxMetadataSize;

    /** A connection with no call for this long is closed. Default 10m. */
    private Duration idleTimeout;

    /**
     * How long a stopping server lets calls in flight finish, after it withdrew from the registry
     * and told its clients (GOAWAY). Default 10s.
     */
    private Duration shutdownGracePeriod;

    /** Tokens accepted as "authorization: Bearer <token>"; empty accepts every call. */
    private List<String> bearerTokens = new ArrayList<>();

    /** The host clients are to use, registered with rpcx.zookeeper. Default an address of this machine. */
    private String advertiseHost;

    /**
     * Whether to publish the reflection service (rpcx.reflection.v1.Reflection), which lists and
     * describes the services for `rpcx list/describe/call` and exports their .proto files. Calls to
     * it pass the server's interceptors (bearer tokens included).
     */
    private boolean reflection;

    /**
     * Whether the failure of a call sends the stack trace of what the implementation threw (its
     * 256 innermost frames), so that the caller's exception shows the server's frames before its
     * own. For development and tests: a stack trace shows the server's code to every client.
     */
    private boolean sendStackTraces;

    /**
     * Whether methods that never block (returning CompletableFuture or CompletionStage, or
     * annotated @NonBlocking) run on the network thread that read their request, with no hand-off
     * to a worker. false runs every call on the workers, for asynchronous methods that still block
     * before they return.
     */
    private boolean nonBlockingOnEventLoop = true;

    /**
     * How long a call may hold a network thread before the server logs a warning with where it is
     * stuck (every other call of that thread's connections waits meanwhile). 0 turns it off.
     */
    private Duration blockedEventLoopThreshold = Duration.ofMillis(500);

    private final ServerSsl ssl = new ServerSsl();

    private final ServerGrpc grpc = new ServerGrpc();

    private final ServerHttp http = new ServerHttp();

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public int getPort() {
      return port;
    }

    public void setPort(int port) {
      this.port = port;
    }

    public String getBindAddress() {
      return bindAddress;
    }

    public void setBindAddress(String bindAddress) {
      this.bindAddress = bindAddress;
    }

    public Integer getWorkerThreads() {
      return workerThreads;
    }

    public boolean isReflection() {
      return reflection;
    }

    public void setReflection(boolean reflection) {
      this.reflection = reflection;
    }

    public boolean isSendStackTraces() {
      return sendStackTraces;
    }

    public void setSendStackTraces(boolean sendStackTraces) {
      this.sendStackTraces = sendStackTraces;
    }

    public boolean isNonBlockingOnEventLoop() {
      return nonBlockingOnEventLoop;
    }

    public void setNonBlockingOnEventLoop(boolean nonBlockingOnEventLoop) {
      this.nonBlockingOnEventLoop = nonBlockingOnEventLoop;
    }

    public Duration getBlockedEventLoopThreshold() {
      return blockedEventLoopThreshold;
    }

    public void setBlockedEventLoopThreshold(Duration blockedEventLoopThreshold) {
      this.blockedEventLoopThreshold = blockedEventLoopThreshold;
    }

    public void setWorkerThreads(Integer workerThreads) {
      this.workerThreads = workerThreads;
    }

    public Integer getMaxQueuedCalls() {
      return maxQueuedCalls;
    }

    public void setMaxQueuedCalls(Integer maxQueuedCalls) {
      this.maxQueuedCalls = maxQueuedCalls;
    }

    public Integer getMaxConnections() {
      return maxConnections;
    }

    public void setMaxConnections(Integer maxConnections) {
      this.maxConnections = maxConnections;
    }

    public Integer getMaxHandshakingConnections() {
      return maxHandshakingConnections;
    }

    public void setMaxHandshakingConnections(Integer maxHandshakingConnections) {
      this.maxHandshakingConnections = maxHandshakingConnections;
    }

    public Integer getMaxHandshakingConnectionsPerAddress() {
      return maxHandshakingConnectionsPerAddress;
    }

    public void setMaxHandshakingConnectionsPerAddress(
        Integer maxHandshakingConnectionsPerAddress) {
      this.maxHandshakingConnectionsPerAddress = maxHandshakingConnectionsPerAddress;
    }

    public Integer getMaxConcurrentCallsPerConnection() {
      return maxConcurrentCallsPerConnection;
    }

    public void setMaxConcurrentCallsPerConnection(Integer maxConcurrentCallsPerConnection) {
      this.maxConcurrentCallsPerConnection = maxConcurrentCallsPerConnection;
    }

    public DataSize getMaxFrameSize() {
      return maxFrameSize;
    }

    public void setMaxFrameSize(DataSize maxFrameSize) {
      this.maxFrameSize = maxFrameSize;
    }

    public Integer getMaxStreamWindow() {
      return maxStreamWindow;
    }

    public void setMaxStreamWindow(Integer maxStreamWindow) {
      this.maxStreamWindow = maxStreamWindow;
    }

    public DataSize getMaxStreamBufferedBytes() {
      return maxStreamBufferedBytes;
    }

    public void setMaxStreamBufferedBytes(DataSize maxStreamBufferedBytes) {
      this.maxStreamBufferedBytes = maxStreamBufferedBytes;
    }

    public DataSize getMaxMetadataSize() {
      return maxMetadataSize;
    }

    public void setMaxMetadataSize(DataSize maxMetadataSize) {
      this.maxMetadataSize = maxMetadataSize;
    }

    public Duration getIdleTimeout() {
      return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
      this.idleTimeout = idleTimeout;
    }

    public Duration getShutdownGracePeriod() {
      return shutdownGracePeriod;
    }

    public void setShutdownGracePeriod(Duration shutdownGracePeriod) {
      this.shutdownGracePeriod = shutdownGracePeriod;
    }

    public List<String> getBearerTokens() {
      return bearerTokens;
    }

    public void setBearerTokens(List<String> bearerTokens) {
      this.bearerTokens = bearerTokens;
    }

    public String getAdvertiseHost() {
      return advertiseHost;
    }

    public void setAdvertiseHost(String advertiseHost) {
      this.advertiseHost = advertiseHost;
    }

    /** TLS for the clients. */
    public ServerSsl getSsl() {
      return ssl;
    }

    public ServerGrpc getGrpc() {
      return grpc;
    }

    public ServerHttp getHttp() {
      return http;
    }
  }

  /** gRPC on the server's port (docs/GRPC.md). */
  public static class ServerGrpc {
    /**
     * Whether the port answers gRPC beside RPCX's own protocol: every gRPC client, grpcurl and
     * Kubernetes grpc: probes call the same services. Default true.
     */
    private boolean enabled = true;

    /** Whether grpc.health.v1.Health answers (NOT_SERVING once a graceful stop begins). Default true. */
    private boolean health = true;

    /**
     * Whether gRPC reflection (grpc.reflection.v1 and v1alpha) answers, so that grpcurl needs no
     * file. It shows the services' shape, never data, and answers without the server's
     * interceptors (bearer tokens do not apply to it): turn it off where that shape is private.
     * Default true.
     */
    private boolean reflection = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public boolean isHealth() {
      return health;
    }

    public void setHealth(boolean health) {
      this.health = health;
    }

    public boolean isReflection() {
      return reflection;
    }

    public void setReflection(boolean reflection) {
      this.reflection = reflection;
    }
  }

  /**
   * HTTP/JSON calls of the published methods, an OpenAPI document and a service console
   * (docs/HTTP.md), with io.rpcx:rpcx-http on the class path.
   */
  public static class ServerHttp {
    /**
     * Whether the server answers HTTP (HTTP/1.1 and HTTP/2): POST /<service>/<method> with the
     * arguments as JSON answers the result as JSON, through the same interceptors (bearer tokens
     * included), limits and deadlines as RPCX calls. Needs io.rpcx:rpcx-http on the class path.
     */
    private boolean enabled;

    /**
     * A port of its own for HTTP, which then serves HTTP only (and the server's port no HTTP); 0
     * picks a free one, published as local.rpcx.server.http.port. Default the server's port.
     */
    private Integer port;

    /**
     * Whether GET /openapi.json answers with an OpenAPI 3.1 document of the services. It shows
     * their shape, so it is answered only to callers allowed to call the reflection service:
     * needs rpcx.server.reflection=true.
     */
    private boolean openApi;

    /**
     * Whether the service console (a page listing the services, calling their methods) answers
     * at console-path. Guarded as the OpenAPI document is: needs rpcx.server.reflection=true.
     */
    private boolean console;

    /** Where the console's page is: a path that starts and ends with /. Default /. */
    private String consolePath;

    /** Largest request body read; a larger one is answered 413. Default 1MB. */
    private DataSize maxRequestBytes;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Integer getPort() {
      return port;
    }

    public void setPort(Integer port) {
      this.port = port;
    }

    public boolean isOpenApi() {
      return openApi;
    }

    public void setOpenApi(boolean openApi) {
      this.openApi = openApi;
    }

    public boolean isConsole() {
      return console;
    }

    public void setConsole(boolean console) {
      this.console = console;
    }

    public String getConsolePath() {
      return consolePath;
    }

    public void setConsolePath(String consolePath) {
      this.consolePath = consolePath;
    }

    public DataSize getMaxRequestBytes() {
      return maxRequestBytes;
    }

    public void setMaxRequestBytes(DataSize maxRequestBytes) {
      this.maxRequestBytes = maxRequestBytes;
    }
  }

  /** A client's TLS, through a Spring Boot SSL bundle ({@code spring.ssl.bundle.*}). */
  public static class ClientSsl {
    /**
     * The SSL bundle (spring.ssl.bundle.*): its trust store holds the authorities of the servers'
     * certificates, and its key store, if any, the client's own key for mutual TLS.
     */
    private String bundle;

    /** Whether the server's certificate must name the host called. Default true. */
    private Boolean verifyHostname;

    public String getBundle() {
      return bundle;
    }

    public void setBundle(String bundle) {
      this.bundle = bundle;
    }

    public Boolean getVerifyHostname() {
      return verifyHostname;
    }

    public void setVerifyHostname(Boolean verifyHostname) {
      this.verifyHostname = verifyHostname;
    }
  }

  /** A server's TLS, through a Spring Boot SSL bundle ({@code spring.ssl.bundle.*}). */
  public static class ServerSsl {
    /**
     * The SSL bundle (spring.ssl.bundle.*): its key store holds the server's key and
     * certificate, and its trust store the authorities of client certificates.
     */
    private String bundle;

    /** Whether clients must present a certificate that the bundle's trust store accepts. */
    private boolean clientAuth;

    public String getBundle() {
      return bundle;
    }

    public void setBundle(String bundle) {
      this.bundle = bundle;
    }

    public boolean isClientAuth() {
      return clientAuth;
    }

    public void setClientAuth(boolean clientAuth) {
      this.clientAuth = clientAuth;
    }
  }

  /** The {@code rpcx.zookeeper.*} properties. */
  public static class ZooKeeper {
    /**
     * The ZooKeeper ensemble, host:port[,host:port...]. When set, clients find the servers of
     * their services there and the server registers its services there.
     */
    private String connectString;

    /** The znode under which services are registered. Default /rpcx. */
    private String basePath;

    /** ZooKeeper session timeout. Default 15s. */
    private Duration sessionTimeout;

    /** How long to wait for the connection to ZooKeeper. Default 5s. */
    private Duration connectionTimeout;

    public String getConnectString() {
      return connectString;
    }

    public void setConnectString(String connectString) {
      this.connectString = connectString;
    }

    public String getBasePath() {
      return basePath;
    }

    public void setBasePath(String basePath) {
      this.basePath = basePath;
    }

    public Duration getSessionTimeout() {
      return sessionTimeout;
    }

    public void setSessionTimeout(Duration sessionTimeout) {
      this.sessionTimeout = sessionTimeout;
    }

    public Duration getConnectionTimeout() {
      return connectionTimeout;
    }

    public void setConnectionTimeout(Duration connectionTimeout) {
      this.connectionTimeout = connectionTimeout;
    }
  }

  /** The {@code rpcx.observations.*} properties. */
  public static class Observations {
    /**
     * Whether calls are observed (timers, gauges, spans) through the application's
     * ObservationRegistry and MeterRegistry, when it has them.
     */
    private boolean enabled = true;

    /**
     * Whether to record the call timers straight into the MeterRegistry (the same names and
     * tags, at a fraction of the cost) instead of through the ObservationRegistry, which also
     * traces and runs the application's observation handlers.
     */
    private boolean metricsOnly;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public boolean isMetricsOnly() {
      return metricsOnly;
    }

    public void setMetricsOnly(boolean metricsOnly) {
      this.metricsOnly = metricsOnly;
    }
  }
}
