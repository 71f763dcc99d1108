package io.rpcx.client.internal.config;

import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.LoadBalancing;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.internal.config.ConnectionSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Everything a client was configured with, as {@code RpcxClient.Builder} checked it: what the
 * client's parts read. Immutable; the collections are copied.
 *
 * @param connection the settings client and server share (threads, transport, TLS, limits)
 * @param defaultTarget the servers of every interface without targets of its own, or {@code null}
 * @param targets the servers of each interface given its own
 * @param discovery where the servers of the other interfaces come from, or {@code null}
 * @param loadBalancing the strategy of services called without one of their own
 * @param zone the zone the client runs in, whose servers the balancers prefer, or {@code null}
 * @param loadBalancingByInterface the strategy of each interface given its own
 * @param ejection when a failing server is taken out of rotation
 * @param interfaces the interfaces registered or found by scanning, checked when the client is
 *     built
 * @param callbackExecutor the executor asynchronous calls complete on, or {@code null} for the
 *     client's own
 * @param metadata metadata sent with every call
 * @param interceptors the client interceptors, in the order they run
 */
public record ClientConfig(
    ConnectionSettings connection,
    List<ServiceEndpoint> defaultTarget,
    Map<Class<?>, List<ServiceEndpoint>> targets,
    ServiceDiscovery discovery,
    LoadBalancing loadBalancing,
    String zone,
    Map<Class<?>, LoadBalancing> loadBalancingByInterface,
    int maxAttempts,
    double retryRatio,
    int minRetriesPerSecond,
    Ejection ejection,
    List<Class<?>> interfaces,
    long defaultTimeoutMillis,
    Duration connectTimeout,
    Executor callbackExecutor,
    Duration keepAliveInterval,
    Duration keepAliveTimeout,
    Duration initialBackoff,
    Duration maxBackoff,
    Map<String, String> metadata,
    List<ClientInterceptor> interceptors) {
  /** Copies the collections. */
  public ClientConfig {
    defaultTarget = defaultTarget == null ? null : List.copyOf(defaultTarget);
    targets = Map.copyOf(targets);
    loadBalancingByInterface = Map.copyOf(loadBalancingByInterface);
    interfaces = List.copyOf(interfaces);
    metadata = Map.copyOf(metadata);
    interceptors = List.copyOf(interceptors);
  }

  /** The strategy of {@code serviceInterface}: its own, else the client's. */
  public LoadBalancing loadBalancing(Class<?> serviceInterface) {
    return loadBalancingByInterface.getOrDefault(serviceInterface, loadBalancing);
  }
}
