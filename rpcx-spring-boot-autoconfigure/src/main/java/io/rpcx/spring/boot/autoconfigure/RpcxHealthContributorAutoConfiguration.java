package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import io.rpcx.spring.boot.EnableRpcxClients;
import io.rpcx.spring.boot.RpcxClientInterfaces;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The health contributor {@code rpcx}, with Spring Boot's health support on the class path: {@code
 * rpcx/server} ({@link RpcxServerHealthIndicator}) and {@code rpcx/client} ({@link
 * RpcxClientHealthIndicator}), for the parts the application has. {@code
 * management.health.rpcx.enabled=false} leaves it out.
 */
@AutoConfiguration(after = {RpcxClientAutoConfiguration.class, RpcxServerAutoConfiguration.class})
@ConditionalOnClass(HealthContributor.class)
@ConditionalOnEnabledHealthIndicator("rpcx")
public class RpcxHealthContributorAutoConfiguration {

  /** Made by Spring. */
  public RpcxHealthContributorAutoConfiguration() {}

  @Bean
  @ConditionalOnBean(HealthPart.class)
  HealthContributor rpcxHealthContributor(ObjectProvider<HealthPart> parts) {
    Map<String, HealthIndicator> byName = new LinkedHashMap<>();
    parts.orderedStream().forEach(part -> byName.put(part.name(), part.indicator()));
    return CompositeHealthContributor.fromMap(byName);
  }

  /** The server's part. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(RpcxServer.class)
  @ConditionalOnBean(RpcxServerLifecycle.class)
  static class Server {
    @Bean
    HealthPart rpcxServerHealth(RpcxServer server, RpcxServerLifecycle lifecycle) {
      return new HealthPart("server", new RpcxServerHealthIndicator(server, lifecycle));
    }
  }

  /** The client's part. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(RpcxClient.class)
  @ConditionalOnBean(name = EnableRpcxClients.CLIENT_BEAN)
  static class Client {
    @Bean
    HealthPart rpcxClientHealth(RpcxClient client, RpcxClientInterfaces interfaces) {
      return new HealthPart("client", new RpcxClientHealthIndicator(client, interfaces.types()));
    }
  }

  /** One part of the contributor: a name under {@code rpcx} and its indicator. */
  record HealthPart(String name, HealthIndicator indicator) {}
}
