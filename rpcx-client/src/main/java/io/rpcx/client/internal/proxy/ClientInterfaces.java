package io.rpcx.client.internal.proxy;

import io.rpcx.client.internal.cluster.ServiceSources;
import io.rpcx.client.internal.config.ClientConfig;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client interfaces a client knows: the model of each, built once, and where its servers come
 * from. Thread-safe.
 */
public final class ClientInterfaces {
  private final CodecRegistry codecs = StandardCodecs.registry();
  private final Map<Class<?>, ServiceModel> models = new ConcurrentHashMap<>();
  private final ServiceSources sources;

  private ClientInterfaces(ClientConfig config) {
    this.sources = new ServiceSources(config.targets(), config.discovery(), config.defaultTarget());
  }

  /**
   * Checks every interface of {@code config}, before anything is started: a mistake fails here,
   * naming the interface and method, not at the first call.
   *
   * @throws IllegalArgumentException if an interface is not a valid RPCX client interface, or no
   *     address is known for it
   */
  public static ClientInterfaces check(ClientConfig config) {
    ClientInterfaces interfaces = new ClientInterfaces(config);
    for (Class<?> type : config.interfaces()) {
      interfaces.source(type, interfaces.model(type));
    }
    return interfaces;
  }

  /** The model of {@code type}, built on first use. */
  ServiceModel model(Class<?> type) {
    return models.computeIfAbsent(type, t -> ServiceModels.forClient(t, codecs));
  }

  /** Where the servers of {@code service}, called without an interface, come from. */
  ServiceDiscovery source(String service) {
    return sources.of(service);
  }

  /** Where the servers of {@code type}, whose model is {@code model}, come from. */
  ServiceDiscovery source(Class<?> type, ServiceModel model) {
    return sources.of(type, model.name());
  }
}
