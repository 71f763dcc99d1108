package io.rpcx.client.internal.proxy;

import io.rpcx.client.RawCall;
import io.rpcx.client.internal.call.ClientMethod;
import io.rpcx.client.internal.call.Completions;
import io.rpcx.client.internal.call.RetryPolicy;
import io.rpcx.client.internal.cluster.Members;
import io.rpcx.client.internal.cluster.ServiceCluster;
import io.rpcx.client.internal.config.ClientConfig;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.internal.codec.RawValueCodec;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.grpc.GrpcPaths;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModel;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
  /** Raw calls: a cluster per service name, and a client method per signature. */
  private final Map<String, ServiceCluster> rawClusters = new ConcurrentHashMap<>();
  /** Most raw-call signatures whose method model is kept; further ones are modelled per call. */
  private static final int MAX_CACHED_RAW_METHODS = 1024;

  private final Map<RawSignature, ClientMethod> rawMethods = new ConcurrentHashMap<>();
  /** Where gRPC servers serve raw calls: known only by the calls' names. */
  private final GrpcPaths rawGrpcPaths = GrpcPaths.byName();
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
    for (ServiceCluster cluster : rawClusters.values()) {
      cluster.close();
    }
  }

  /**
   * Sends {@code call}; the future completes with the reply's value message. Its client method is
   * built once per signature, its cluster once per service.
   *
   * @throws IllegalArgumentException if no server address is known for the service, or an
   *     argument is not a value message of its type
   */
  @SuppressWarnings("unchecked")
  public CompletableFuture<byte[]> call(RawCall call) {
    RawSignature signature =
        new RawSignature(
            call.service(), call.method(), call.argumentTypes(), call.resultType(),
            call.timeoutMillis(), call.idempotent());
    ClientMethod method = rawMethods.get(signature);
    if (method == null) {
      // Bounded: a gateway passing each request's own timeout would otherwise add one per value.
      method =
          rawMethods.size() < MAX_CACHED_RAW_METHODS
              ? rawMethods.computeIfAbsent(signature, this::rawMethod)
              : rawMethod(signature);
    }
    Object[] arguments = call.arguments().toArray();
    ValueCodec<Object>[] codecs = method.model().parameterCodecs();
    for (int i = 0; i < arguments.length; i++) {
      String problem = ((RawValueCodec) (ValueCodec<?>) codecs[i]).problemWith((byte[]) arguments[i]);
      if (problem != null) {
        throw new IllegalArgumentException(
            "argument " + i + " of " + method.model().displayName() + ": " + problem);
      }
    }
    try {
      return (CompletableFuture<byte[]>) method.invoke(arguments);
    } catch (Throwable t) {
      return CompletableFuture.failedFuture(t);
    }
  }

  private ClientMethod rawMethod(RawSignature signature) {
    MethodModel model =
        MethodModel.raw(
            signature.service(), signature.method(), signature.argumentTypes(),
            signature.resultType(), signature.timeoutMillis(), signature.idempotent());
    ServiceCluster cluster =
        rawClusters.computeIfAbsent(
            signature.service(),
            service -> {
              ServiceDiscovery source = interfaces.source(service);
              ServiceCluster created =
                  new ServiceCluster(
                      service, source.describe(service), config.loadBalancing(), members,
                      config.zone());
              created.subscribe(source);
              if (closed) {
                created.close();
                throw new IllegalStateException("the client is closed");
              }
              return created;
            });
    long timeout =
        model.timeoutMillis() > 0 ? model.timeoutMillis() : config.defaultTimeoutMillis();
    return clientMethod(model, cluster, timeout, rawGrpcPaths);
  }

  private ClientMethod clientMethod(
      MethodModel model, ServiceCluster cluster, long timeoutMillis, GrpcPaths grpcPaths) {
    return new ClientMethod(
        model, cluster, timeoutMillis, completions, config.connection().maxNestingDepth(),
        config.metadata(), retries, config.interceptors(), config.connection().maxStreamWindow(),
        config.connection().maxStreamBufferedBytes(), grpcPaths);
  }

  /** What makes raw calls the same method. */
  private record RawSignature(
      String service,
      String method,
      List<String> argumentTypes,
      String resultType,
      long timeoutMillis,
      boolean idempotent) {}

  private Object newProxy(Class<?> type) {
    ServiceModel model = interfaces.model(type);
    ServiceCluster cluster = cluster(type, model);
    Map<Method, ClientMethod> methods = new HashMap<>();
    GrpcPaths grpcPaths = GrpcPaths.of(model);
    for (Map.Entry<Method, MethodModel> entry : model.methodsByJavaMethod().entrySet()) {
      MethodModel method = entry.getValue();
      // A stream has a deadline only from its own annotation (0: none), never the default.
      long timeout =
          method.timeoutMillis() > 0 || method.descriptor().shape().isStream()
              ? method.timeoutMillis()
              : config.defaultTimeoutMillis();
      methods.put(entry.getKey(), clientMethod(method, cluster, timeout, grpcPaths));
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
                  model.name(), source.describe(model.name()), config.loadBalancing(type), members,
                  config.zone());
          cluster.subscribe(source);
          if (closed) {
            cluster.close(); // closed meanwhile: let go of the watch at once
            throw new IllegalStateException("the client is closed");
          }
          return cluster;
        });
  }
}
