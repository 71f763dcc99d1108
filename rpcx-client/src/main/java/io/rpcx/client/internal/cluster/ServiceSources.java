package io.rpcx.client.internal.cluster;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.StaticDiscovery;
import java.util.List;
import java.util.Map;

/**
 * Where the servers of each client interface come from: its own targets, else the client's
 * discovery, else the client's default target, else the address in its {@link RPCXClient}
 * annotation. Immutable.
 */
public final class ServiceSources {
  private final Map<Class<?>, List<ServiceEndpoint>> targets;
  private final ServiceDiscovery discovery;
  private final List<ServiceEndpoint> defaultTarget;

  /**
   * @param discovery the client's discovery, or {@code null}
   * @param defaultTarget the client's default servers, or {@code null}
   */
  public ServiceSources(
      Map<Class<?>, List<ServiceEndpoint>> targets,
      ServiceDiscovery discovery,
      List<ServiceEndpoint> defaultTarget) {
    this.targets = Map.copyOf(targets);
    this.discovery = discovery;
    this.defaultTarget = defaultTarget;
  }

  /**
   * The source of the servers of {@code service} called without an interface (a raw call): the
   * client's discovery, else its default target.
   *
   * @throws IllegalArgumentException if there is neither
   */
  public ServiceDiscovery of(String service) {
    if (discovery != null) {
      return discovery;
    }
    if (defaultTarget != null) {
      return StaticDiscovery.of(defaultTarget);
    }
    throw new IllegalArgumentException(
        "no server address for service '" + service + "': call RpcxClient.Builder.target(...) or"
            + " discovery(...)");
  }

  /**
   * The source of the servers of {@code serviceInterface}, which publishes {@code service}.
   *
   * @throws IllegalArgumentException if there is none, or its annotation's port is out of range
   */
  public ServiceDiscovery of(Class<?> serviceInterface, String service) {
    List<ServiceEndpoint> specific = targets.get(serviceInterface);
    if (specific != null) {
      return StaticDiscovery.of(specific);
    }
    if (discovery != null) {
      return discovery;
    }
    if (defaultTarget != null) {
      return StaticDiscovery.of(defaultTarget);
    }
    RPCXClient annotation = serviceInterface.getAnnotation(RPCXClient.class);
    if (annotation.address().isBlank() || annotation.port() <= 0) {
      throw new IllegalArgumentException(
          "no server address for " + serviceInterface.getName() + " (service '" + service
              + "'): set address and port in @RPCXClient, or call RpcxClient.Builder.target(...)"
              + " or discovery(...)");
    }
    if (annotation.port() > 65535) {
      throw new IllegalArgumentException(
          "@RPCXClient on " + serviceInterface.getName() + " has port " + annotation.port()
              + " (expected: 1-65535)");
    }
    return StaticDiscovery.of(List.of(annotated(annotation.address().strip(), annotation.port())));
  }

  /**
   * The endpoint an annotation names: its address is a host, or {@code grpc://host} for a gRPC
   * server ({@code rpcx://host} for RPCX's own protocol, the default).
   */
  private static ServiceEndpoint annotated(String address, int port) {
    for (String protocol : new String[] {ServiceEndpoint.GRPC, ServiceEndpoint.RPCX}) {
      String scheme = protocol + "://";
      if (address.startsWith(scheme)) {
        return ServiceEndpoint.of(
            address.substring(scheme.length()), port, Map.of(ServiceEndpoint.PROTOCOL, protocol));
      }
    }
    return ServiceEndpoint.of(address, port);
  }
}
