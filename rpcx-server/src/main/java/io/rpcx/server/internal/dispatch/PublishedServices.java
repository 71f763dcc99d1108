package io.rpcx.server.internal.dispatch;

import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.reflection.ReflectionService;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The published services of a server and their methods, by published name. Built once before the
 * server starts; immutable and thread-safe afterwards.
 */
public final class PublishedServices {
  private final Map<String, Map<String, ServerMethod>> services;
  private final List<ServiceModel> models;

  private PublishedServices(
      Map<String, Map<String, ServerMethod>> services, List<ServiceModel> models) {
    this.services = services;
    this.models = models;
  }

  /**
   * Builds a registry from service models and their implementations, in registration order; the
   * methods that never block run on the network threads if {@code eventLoopAllowed}.
   */
  public static PublishedServices of(
      List<ServiceModel> models, List<Object> implementations, boolean eventLoopAllowed) {
    Map<String, Map<String, ServerMethod>> services = new HashMap<>();
    Map<String, ServiceModel> byName = new HashMap<>();
    for (int i = 0; i < models.size(); i++) {
      ServiceModel model = models.get(i);
      ServiceModel previous = byName.putIfAbsent(model.name(), model);
      if (previous != null) {
        throw new IllegalArgumentException(
            "service name '" + model.name() + "' is published twice: by "
                + previous.type().getName() + " and by " + model.type().getName());
      }
      Map<String, ServerMethod> methods = new HashMap<>();
      for (MethodModel method : model.methods()) {
        methods.put(
            method.descriptor().method(),
            new ServerMethod(method, implementations.get(i), model.type(), eventLoopAllowed));
      }
      services.put(model.name(), Map.copyOf(methods));
    }
    return new PublishedServices(Map.copyOf(services), List.copyOf(models));
  }

  /** The methods of {@code service}, or {@code null} if there is no such service. */
  Map<String, ServerMethod> service(String service) {
    return services.get(service);
  }

  /** The models of the published services, in registration order. */
  public List<ServiceModel> models() {
    return models;
  }

  /**
   * What the published services are, as the reflection service describes them (whether or not
   * the server publishes it), for the server's own parts: its HTTP side.
   */
  public ReflectionService describe() {
    return new ServerReflection(models);
  }

  /** The published service names, sorted. */
  public List<String> serviceNames() {
    List<String> names = new ArrayList<>(services.keySet());
    Collections.sort(names);
    return Collections.unmodifiableList(names);
  }
}
