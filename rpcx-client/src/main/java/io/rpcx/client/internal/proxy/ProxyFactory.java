package io.rpcx.client.internal.proxy;

import io.rpcx.client.internal.call.ClientMethod;
import io.rpcx.client.internal.call.Completions;
import io.rpcx.client.internal.call.RetryPolicy;
import io.rpcx.client.internal.cluster.Members;
import io.rpcx.client.internal.cluster.ServiceCluster;
import io.rpcx.client.internal.cluster.ServiceSources;
import io.rpcx.client.internal.config.ClientConfig;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
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
  private final ServiceSources sources;
  private final CodecRegistry codecs = StandardCodecs.registry();
  private final Map<Class<?>, ServiceModel> models = new ConcurrentHashMap<>();
  private final Map<Class<?>, Object> proxies = new ConcurrentHashMap<>();
  private final Map<Class<?>, ServiceCluster> clusters = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * Checks every interface of {@code config} now: a mistake fails here, naming the interface and
   * method, not at the first call.
   */
  public ProxyFactory(
      ClientConfig config, Members members, Completions completions, RetryPolicy retries) {
    this.config = config;
    this.members = members;
    this.completions = completions;
    this.retries = retries;
    this.sources = new ServiceSources(config.targets(), config.discovery(), config.defaultTarget());
    for (Class<?> type : config.interfaces()) {
      ServiceModel model = model(type);
      sources.of(type, model.name());
    }
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

  private ServiceModel model(Class<?> type) {
    return models.computeIfAbsent(type, t -> ServiceModels.forClient(t, codecs));
  }

  private Object newProxy(Class<?> type) {
    ServiceModel model = model(type);
    ServiceCluster cluster = cluster(type, model);
    Map<Method, ClientMethod> methods = new HashMap<>();
    for (Map.Entry<Method, MethodModel> entry : model.methodsByJavaMethod().entrySet()) {
      MethodModel method = entry.getValue();
      long timeout =
          method.timeoutMillis() > 0 ? method.timeoutMillis() : config.defaultTimeoutMillis();
      methods.put(
          entry.getKey(),
          new ClientMethod(
              method, cluster, timeout, completions, config.connection().maxNestingDepth(),
              config.metadata(), retries));
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
          ServiceDiscovery source = sources.of(type, model.name());
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
