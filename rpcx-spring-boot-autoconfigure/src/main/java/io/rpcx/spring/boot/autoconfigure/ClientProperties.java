package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;

/** Applies the {@code rpcx.client.*} properties to a client builder. */
final class ClientProperties {
  private final RpcxProperties.Client client;
  private final List<Class<?>> interfaces;
  private final ObjectProvider<SslBundles> sslBundles;
  private final PropertyTarget target = new PropertyTarget("rpcx.client");

  ClientProperties(
      RpcxProperties.Client client,
      List<Class<?>> interfaces,
      ObjectProvider<SslBundles> sslBundles) {
    this.client = client;
    this.interfaces = interfaces;
    this.sslBundles = sslBundles;
  }

  void applyTo(RpcxClient.Builder builder) {
    target.set("default-timeout", client.getDefaultTimeout(), builder::defaultTimeout);
    target.set("connect-timeout", client.getConnectTimeout(), builder::connectTimeout);
    target.set("target", client.getTarget(), builder::target); // grpc://host:port: a gRPC server
    target.set("load-balancing", client.getLoadBalancing(), builder::loadBalancing);
    target.set("max-attempts", client.getMaxAttempts(), builder::maxAttempts);
    target.set("bearer-token", client.getBearerToken(), builder::bearerToken);
    for (Map.Entry<String, String> entry : client.getMetadata().entrySet()) {
      target.set(
          "metadata." + entry.getKey(),
          entry.getValue(),
          value -> builder.metadata(entry.getKey(), value));
    }
    if (client.getMaxFrameSize() != null) {
      target.set(
          "max-frame-size",
          client.getMaxFrameSize(),
          target.bytes("max-frame-size", client.getMaxFrameSize()),
          builder::maxFrameSize);
    }
    target.set("max-stream-window", client.getMaxStreamWindow(), builder::maxStreamWindow);
    if (client.getMaxStreamBufferedBytes() != null) {
      target.set(
          "max-stream-buffered-bytes",
          client.getMaxStreamBufferedBytes(),
          client.getMaxStreamBufferedBytes().toBytes(),
          builder::maxStreamBufferedBytes);
    }
    target.set("io-threads", client.getIoThreads(), builder::ioThreads);
    for (Map.Entry<String, RpcxProperties.Service> service : client.getServices().entrySet()) {
      applyService(builder, service.getKey(), service.getValue());
    }
    TlsConfig tls = SslBundleTls.client(client.getSsl(), sslBundles, target);
    if (tls != null) {
      builder.tls(tls);
    }
  }

  /**
   * Fails naming the properties to set if a service has no servers: no target of its own, no
   * client-wide target, no discovery, and no address in its annotation.
   */
  void checkEveryServiceHasServers(boolean discovery) {
    if (discovery || client.getTarget() != null) {
      return;
    }
    for (Class<?> type : interfaces) {
      RPCXClient annotation = type.getAnnotation(RPCXClient.class);
      RpcxProperties.Service service = client.getServices().get(annotation.name());
      boolean targets = service != null && !service.getTargets().isEmpty();
      boolean annotated = !annotation.address().isBlank() && annotation.port() > 0;
      if (!targets && !annotated) {
        throw target.problem(
            "services." + annotation.name() + ".targets",
            "Service '" + annotation.name() + "' (" + type.getName() + ") has no servers:"
                + " rpcx.client.services." + annotation.name() + ".targets,"
                + " rpcx.client.target and rpcx.zookeeper.connect-string are unset, and its"
                + " @RPCXClient names no address and port.",
            "Set rpcx.client.services." + annotation.name() + ".targets to its servers (each"
                + " host:port), or rpcx.client.target for every service, or"
                + " rpcx.zookeeper.connect-string to find them in ZooKeeper.");
      }
    }
  }

  private void applyService(
      RpcxClient.Builder builder, String name, RpcxProperties.Service service) {
    List<Class<?>> types = new ArrayList<>();
    for (Class<?> type : interfaces) {
      if (type.getAnnotation(RPCXClient.class).name().equals(name)) {
        types.add(type);
      }
    }
    if (types.isEmpty()) {
      TreeSet<String> known = new TreeSet<>();
      for (Class<?> type : interfaces) {
        known.add(type.getAnnotation(RPCXClient.class).name());
      }
      throw target.problem(
          "services." + name,
          "The properties rpcx.client.services." + name + ".* are for service '" + name
              + "', which no @EnableRpcxClients interface calls.",
          "Name a service an @EnableRpcxClients interface calls (" + String.join(", ", known)
              + "), or register the interface that calls '" + name + "'.");
    }
    List<ServiceEndpoint> endpoints = new ArrayList<>();
    for (int i = 0; i < service.getTargets().size(); i++) {
      endpoints.add(endpoint("services." + name + ".targets[" + i + "]", service.getTargets().get(i)));
    }
    for (Class<?> type : types) {
      if (!endpoints.isEmpty()) {
        builder.targets(type, endpoints);
      }
      if (service.getLoadBalancing() != null) {
        builder.loadBalancing(type, service.getLoadBalancing());
      }
    }
  }

  private ServiceEndpoint endpoint(String property, String value) {
    try {
      return ServiceEndpoint.parse(value);
    } catch (InvalidSettingException e) {
      throw target.refused(property, value, e);
    }
  }

}
