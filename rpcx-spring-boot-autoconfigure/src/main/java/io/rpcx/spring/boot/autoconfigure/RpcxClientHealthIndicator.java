package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The client's health: for each service its interfaces call, each server and whether the client
 * sends it calls (available), was told by it that it is going away (going_away), cannot connect to
 * it (unreachable), or took it out of rotation (ejected, probing); the client finds out by itself,
 * idle or not, reconnecting in the background. UP while every service has an available server,
 * DOWN otherwise (a service whose discovery lists no server too), naming the services without
 * one. An application that should stay UP while a service it calls is down
 * leaves this indicator out of its health groups, or turns it off with {@code
 * management.health.rpcx.enabled=false}.
 */
final class RpcxClientHealthIndicator implements HealthIndicator {
  private final RpcxClient client;
  private final List<Class<?>> interfaces;

  RpcxClientHealthIndicator(RpcxClient client, List<Class<?>> interfaces) {
    this.client = client;
    this.interfaces = interfaces;
  }

  @Override
  public Health health() {
    Map<String, Map<String, String>> services = new LinkedHashMap<>();
    Map<String, Boolean> available = new LinkedHashMap<>();
    for (Class<?> type : interfaces) {
      String service = type.getAnnotation(RPCXClient.class).name();
      List<EndpointStatus> endpoints;
      try {
        client.create(type); // the same proxy as its bean's, made if a test replaced the bean
        endpoints = client.endpoints(type);
      } catch (RuntimeException e) {
        services.computeIfAbsent(service, s -> new LinkedHashMap<>()).put("error", e.toString());
        available.putIfAbsent(service, false);
        continue;
      }
      Map<String, String> servers = services.computeIfAbsent(service, s -> new LinkedHashMap<>());
      available.putIfAbsent(service, false);
      for (EndpointStatus endpoint : endpoints) {
        servers.put(endpoint.address(), endpoint.state().name().toLowerCase(Locale.ROOT));
        if (endpoint.state() == EndpointStatus.State.AVAILABLE) {
          available.put(service, true);
        }
      }
    }
    List<String> unavailable =
        available.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
    Health.Builder health = unavailable.isEmpty() ? Health.up() : Health.down();
    health.withDetail("services", services);
    if (!unavailable.isEmpty()) {
      health.withDetail("withoutAvailableServer", unavailable);
    }
    return health.build();
  }
}
