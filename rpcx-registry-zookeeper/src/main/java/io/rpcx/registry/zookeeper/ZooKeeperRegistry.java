package io.rpcx.registry.zookeeper;

import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.ServiceRegistrar;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Service discovery and registration in Apache ZooKeeper, through Apache Curator: a server
 * registers an ephemeral node per service, which ZooKeeper removes when the server withdraws it or
 * its session ends; clients watch the nodes and follow every change.
 *
 * <pre>{@code
 * ZooKeeperRegistry registry = ZooKeeperRegistry.builder()
 *     .connectString("zk1:2181,zk2:2181,zk3:2181")
 *     .build();
 * RpcxServer server = RpcxServer.builder().service(new OrderServiceImpl())
 *     .registrar(registry).build().start();           // on servers
 * RpcxClient client = RpcxClient.builder().discovery(registry).build();   // on clients
 * }</pre>
 *
 * <p>Layout, under the base path (default {@code /rpcx}): {@code
 * /services/<service>/<host:port>_<instance>}, one ephemeral node per server and service, whose data
 * is an {@link EndpointRecord} (a few lines of text). The service name and address are URL-encoded
 * into node names. Clients parse every node as untrusted input: a node they cannot read is skipped
 * with a warning naming its path and the problem.
 *
 * <p>Whoever can write under the base path can direct clients to a host of their choosing: protect
 * it with ZooKeeper ACLs (on a Curator client passed to {@link Builder#client}) and use TLS between
 * clients and servers.
 *
 * <p>While the connection to ZooKeeper is lost, clients keep the servers they know and calls go
 * on; they take up changes again when it is back. A registration survives reconnections and is
 * created again if its session expired. Thread-safe; {@link #close()} withdraws the registrations
 * and stops the watches (and closes the Curator client if this registry created it).
 */
public final class ZooKeeperRegistry implements ServiceDiscovery, ServiceRegistrar, AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(ZooKeeperRegistry.class);

  private final CuratorFramework client;
  private final boolean ownsClient;
  private final String basePath;
  private final Duration initialListTimeout;
  private final Duration connectionTimeout;
  private final ExecutorService withdrawals =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "rpcx-zookeeper-withdraw");
            thread.setDaemon(true);
            return thread;
          });
  private final String description;
  private final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private ZooKeeperRegistry(Builder builder) {
    this.basePath = builder.basePath;
    this.initialListTimeout = builder.initialListTimeout;
    this.connectionTimeout = builder.connectionTimeout;
    if (builder.client != null) {
      this.client = builder.client;
      this.ownsClient = false;
    } else {
      this.client =
          CuratorFrameworkFactory.builder()
              .connectString(builder.connectString)
              .sessionTimeoutMs((int) builder.sessionTimeout.toMillis())
              .connectionTimeoutMs((int) builder.connectionTimeout.toMillis())
              .retryPolicy(new ExponentialBackoffRetry(100, 29, 5_000))
              .build();
      this.ownsClient = true;
      client.start();
    }
    this.description =
        "zookeeper " + client.getZookeeperClient().getCurrentConnectionString() + basePath;
  }

  /** A builder of a registry. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String describe() {
    return description;
  }

  /**
   * Registers {@code endpoint} for {@code service} as an ephemeral node; returns at once, the node
   * is created in the background (and again after its session expired) until the registration is
   * closed.
   */
  @Override
  public Registration register(String service, ServiceEndpoint endpoint) {
    checkOpen();
    String instance = endpoint.metadata().getOrDefault("instance", UUID.randomUUID().toString());
    String path =
        servicePath(service) + "/" + segment(endpoint.address()) + "_" + segment(instance);
    PersistentNode node =
        new PersistentNode(client, CreateMode.EPHEMERAL, false, path, EndpointRecord.encode(endpoint));
    AutoCloseable closer = () -> withdraw(node, path);
    open.add(closer);
    node.start();
    logger.debug("Registering {} for service '{}' at {}", endpoint, service, path);
    return () -> {
      if (open.remove(closer)) {
        withdraw(node, path);
      }
    };
  }

  /**
   * Deletes a registration node. Waits for it only while connected, and then at most the connection
   * timeout: Curator's delete blocks while ZooKeeper is unreachable, and a stopping server must
   * not. An unfinished delete goes on in the background; the node goes with the session anyway.
   */
  private void withdraw(PersistentNode node, String path) {
    CompletableFuture<Void> deleted =
        CompletableFuture.runAsync(
            () -> {
              try {
                node.close();
              } catch (IOException | RuntimeException e) {
                logger.warn("Removing {} from ZooKeeper failed (it goes with the session)", path, e);
              }
            },
            withdrawals);
    if (!client.getZookeeperClient().isConnected()) {
      logger.warn("Not connected to ZooKeeper: {} goes when the session ends", path);
      return;
    }
    try {
      deleted.get(connectionTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      logger.warn(
          "ZooKeeper did not confirm the removal of {} within {} ms; it goes with the session",
          path,
          connectionTimeout.toMillis());
    } catch (ExecutionException e) {
      logger.warn("Removing {} from ZooKeeper failed", path, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Watches the servers of {@code service}. Waits up to the initial list timeout (default 5 s) for
   * the first list, which {@code listener} gets before this returns; if ZooKeeper does not answer in
   * time, the listener gets an empty list and the real one as soon as it arrives.
   */
  @Override
  public Subscription subscribe(String service, Listener listener) {
    checkOpen();
    ServiceWatch watch = new ServiceWatch(client, servicePath(service), service, listener);
    open.add(watch);
    watch.start(initialListTimeout, description);
    return () -> {
      if (open.remove(watch)) {
        watch.close();
      }
    };
  }

  /** The path under which the servers of {@code service} register. */
  String servicePath(String service) {
    Objects.requireNonNull(service, "service");
    if (service.isEmpty()) {
      throw new IllegalArgumentException("service name is empty");
    }
    return basePath + "/services/" + segment(service);
  }

  /** A node name for any text: URL-encoded, never "." or "..". */
  static String segment(String text) {
    String encoded = URLEncoder.encode(text, StandardCharsets.UTF_8);
    return encoded.equals(".") || encoded.equals("..") ? encoded.replace(".", "%2E") : encoded;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the ZooKeeper registry is closed");
    }
  }

  /** Withdraws registrations, stops watches, and closes the Curator client if it created it. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (AutoCloseable resource : List.copyOf(open)) {
      try {
        resource.close();
      } catch (Exception e) {
        logger.warn("Closing {} failed", resource, e);
      }
    }
    open.clear();
    withdrawals.shutdown();
    if (ownsClient) {
      client.close();
    }
  }

  @Override
  public String toString() {
    return description;
  }

  /** Configures a {@link ZooKeeperRegistry}; not thread-safe. */
  public static final class Builder {
    private String connectString;
    private CuratorFramework client;
    private String basePath = "/rpcx";
    private Duration sessionTimeout = Duration.ofSeconds(15);
    private Duration connectionTimeout = Duration.ofSeconds(5);
    private Duration initialListTimeout = Duration.ofSeconds(5);

    private Builder() {}

    /** ZooKeeper servers, {@code host:port,host:port,...}. */
    public Builder connectString(String connectString) {
      Objects.requireNonNull(connectString, "connectString");
      if (connectString.isBlank()) {
        throw new InvalidSettingException(
            "connectString", connectString, "host:port,host:port,...");
      }
      this.connectString = connectString.strip();
      return this;
    }

    /** Uses a started Curator client of the application, which {@link #close()} leaves open. */
    public Builder client(CuratorFramework client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /** Where the registry's nodes live; default {@code /rpcx}. */
    public Builder basePath(String basePath) {
      Objects.requireNonNull(basePath, "basePath");
      if (!basePath.startsWith("/") || basePath.endsWith("/") || basePath.contains("//")) {
        throw new InvalidSettingException("basePath", basePath, "an absolute path such as /rpcx");
      }
      this.basePath = basePath;
      return this;
    }

    /**
     * How long ZooKeeper keeps a session whose client is silent (a crashed server's nodes go after
     * it); default 15 s. ZooKeeper may bound it to 2-20 times its tick time.
     */
    public Builder sessionTimeout(Duration timeout) {
      this.sessionTimeout = positive(timeout, "sessionTimeout");
      return this;
    }

    /** How long connecting to ZooKeeper may take; default 5 s. */
    public Builder connectionTimeout(Duration timeout) {
      this.connectionTimeout = positive(timeout, "connectionTimeout");
      return this;
    }

    /** How long {@code subscribe} waits for the first list of servers; default 5 s. */
    public Builder initialListTimeout(Duration timeout) {
      this.initialListTimeout = positive(timeout, "initialListTimeout");
      return this;
    }

    private static Duration positive(Duration duration, String name) {
      Objects.requireNonNull(duration, name);
      if (duration.isNegative() || duration.isZero() || duration.toMillis() > Integer.MAX_VALUE) {
        throw new InvalidSettingException(name, duration, "> 0");
      }
      return duration;
    }

    /** Connects (in the background) and returns the registry. */
    public ZooKeeperRegistry build() {
      if ((connectString == null) == (client == null)) {
        throw new IllegalArgumentException(
            "set exactly one of connectString(...) and client(...)");
      }
      return new ZooKeeperRegistry(this);
    }
  }
}
