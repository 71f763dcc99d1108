package io.rpcx.client.internal.proxy;

import io.rpcx.client.internal.call.ClientMethod;
import io.rpcx.client.internal.call.Completions;
import io.rpcx.client.internal.call.RetryPolicy;
import io.rpcx.client.internal.cluster.Members;
import io.rpcx.client.internal.cluster.ServiceCluster;
import io.rpcx.client.internal.config.ClientConfig;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModel;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds client interfaces to the remote services they stand for: per interface, once, its model,
 * the cluster of its servers (watched from its source until the client closes), a {@link
 * ClientMethod} per method and the proxy. Thread-safe.
 */
public final class ProxyFactory {
  private final ClientConfig config;
  private final Members members;
  private final Completions completions;
  private final RetryPolicy retries;
  private final ClientInterfaces interfaces;
  private final Map<Class<?>, Object> proxies = new ConcurrentHashMap<>();
  private final Map<Class<?>, ServiceCluster> clusters = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** Binds the {@code interfaces} of {@code config} to clusters of {@code members}. */
  public ProxyFactory(
      ClientConfig config,
      ClientInterfaces interfaces,
      Members members,
      Completions completions,
      RetryPolicy retries) {
    this.config = config;
    this.interfaces = interfaces;
    this.members = members;
    this.completions = completions;
    this.retries = retries;
  }

  /** The proxy of {@code serviceInterface}: the same one each time. */
  public Object proxy(Class<?> serviceInterface) {
    return proxies.computeIfAbsent(serviceInterface, this::newProxy);
  }

  /** The cluster of {@code serviceInterface}, or {@code null} if no proxy of it was made. */
  public ServiceCluster cluster(Class<?> serviceInterface) {
    return clusters.get(serviceInterface);
  }

  /** Lets go of every cluster's watch and members. */
  public void close() {
    closed = true;
    for (ServiceCluster cluster : clusters.values()) {
      cluster.close();
    }
  }

  private Object newProxy(Class<?> type) {
    ServiceModel model = interfaces.model(type);
    ServiceCluster cluster = cluster(type, model);
    Map<Method, ClientMethod> methods = new HashMap<>();
    for (Map.Entry<Method, MethodModel> entry : model.methodsByJavaMethod().entrySet()) {
      MethodModel method = entry.getValue();
      // A stream has a deadline only from its own annotation (0: none), never the default.
      long timeout =
          method.timeoutMillis() > 0 || method.isServerStream()
              ? method.timeoutMillis()
              : config.defaultTimeoutMillis();
      methods.put(
          entry.getKey(),
          new ClientMethod(
              method, cluster, timeout, completions, config.connection().maxNestingDepth(),
              config.metadata(), retries, config.interceptors()));
    }
    String prefix = "RPCX client of service '" + model.name() + "' (" + type.getName() + ") at ";
    return Proxy.newProxyInstance(
        type.getClassLoader(),
        new Class<?>[] {type},
        new ServiceProxy(methods, () -> prefix + cluster.address()));
  }

  private ServiceCluster cluster(Class<?> type, ServiceModel model) {
    return clusters.computeIfAbsent(
        type,
        key -> {
          ServiceDiscovery source = interfaces.source(type, model);
          ServiceCluster cluster =
              new ServiceCluster(
                  model.name(), source.describe(), config.loadBalancing(type), members);
          cluster.subscribe(source);
          if (closed) {
            cluster.close(); // closed meanwhile: let go of the watch at once
            throw new IllegalStateException("the client is closed");
          }
          return cluster;
        });
  }
}
