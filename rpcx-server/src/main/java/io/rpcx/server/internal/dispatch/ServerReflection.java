package io.rpcx.server.internal.dispatch;

import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.reflection.DescribedService;
import io.rpcx.core.internal.reflection.ServiceDescriptions;
import io.rpcx.core.internal.reflection.ServiceExport;
import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.core.reflection.ServiceDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reflection service a server publishes when asked to: it describes the server's own models,
 * the same ones that dispatch its calls. A service's export is built on first request and kept.
 * Thread-safe.
 */
final class ServerReflection implements ReflectionService {
  private final List<ServiceModel> models;
  private final Map<String, DescribedService> descriptions = new ConcurrentHashMap<>();
  private final Map<String, ServiceExport> exports = new ConcurrentHashMap<>();

  /** @param models every published service, this one included; read only once the server is built */
  ServerReflection(List<ServiceModel> models) {
    this.models = models;
  }

  @Override
  public List<String> listServices() {
    List<String> names = new ArrayList<>();
    for (ServiceModel model : models) {
      names.add(model.name());
    }
    names.sort(null);
    return names;
  }

  @Override
  public Optional<ServiceDescription> describe(String service) {
    // Described without exporting: what the codecs say needs no protobuf naming to hold.
    return described(service).map(DescribedService::description);
  }

  @Override
  public Map<String, String> protoFiles(String service) {
    return export(service).map(ServiceExport::protoFiles).orElse(Map.of());
  }

  @Override
  public byte[] fileDescriptorSet(String service) {
    return export(service).map(export -> export.fileDescriptorSet().toByteArray()).orElse(new byte[0]);
  }

  private Optional<DescribedService> described(String service) {
    for (ServiceModel model : models) {
      if (model.name().equals(service)) {
        return Optional.of(descriptions.computeIfAbsent(service, name -> ServiceDescriptions.describe(model)));
      }
    }
    return Optional.empty();
  }

  private Optional<ServiceExport> export(String service) {
    return described(service).map(described -> exports.computeIfAbsent(service, name -> ServiceExport.of(described)));
  }
}
