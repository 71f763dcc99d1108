package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.spring.boot.EnableRpcxClients;
import io.rpcx.spring.boot.RpcxClientBuilderCustomizer;
import io.rpcx.spring.boot.RpcxClientInterfaces;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;

/**
 * The application's {@link RpcxClient}, when {@code @EnableRpcxClients} registered interfaces: one
 * client for all of them, configured by {@code rpcx.client.*}, then instrumented, then given the
 * {@link ClientInterceptor} beans in {@code @Order}, then customized by the {@link
 * RpcxClientBuilderCustomizer} beans; closed with the context.
 */
@AutoConfiguration(after = RpcxZooKeeperAutoConfiguration.class)
@ConditionalOnClass(RpcxClient.class)
@ConditionalOnBean(RpcxClientInterfaces.class)
@EnableConfigurationProperties(RpcxProperties.class)
public class RpcxClientAutoConfiguration {
  /** Made by Spring. */
  public RpcxClientAutoConfiguration() {}

  @Bean(name = EnableRpcxClients.CLIENT_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(name = EnableRpcxClients.CLIENT_BEAN)
  RpcxClient rpcxClient(
      RpcxProperties properties,
      RpcxClientInterfaces interfaces,
      ObjectProvider<ServiceDiscovery> discovery,
      ObjectProvider<SslBundles> sslBundles,
      ObjectProvider<ClientInstrumentation> instrumentation,
      ObjectProvider<ClientInterceptor> interceptors,
      ObjectProvider<RpcxClientBuilderCustomizer> customizers) {
    RpcxClient.Builder builder = RpcxClient.builder();
    ClientProperties clientProperties =
        new ClientProperties(properties.getClient(), interfaces.types(), sslBundles);
    clientProperties.applyTo(builder);
    ServiceDiscovery found = discovery.getIfAvailable();
    clientProperties.checkEveryServiceHasServers(found != null);
    if (found != null) {
      if (properties.getClient().getTarget() != null) {
        throw new PropertyTarget("rpcx.client")
            .invalid(
                "target",
                properties.getClient().getTarget(),
                "no value while the servers are found by " + found.describe()
                    + " (rpcx.client.services.<name>.targets may still pin one service)",
                null);
      }
      builder.discovery(found);
    }
    instrumentation.orderedStream().forEach(each -> each.instrument(builder));
    interceptors.orderedStream().forEach(builder::intercept);
    customizers.orderedStream().forEach(each -> each.customize(builder));
    builder.register(interfaces.types().toArray(new Class<?>[0]));
    return builder.build();
  }
}
