package io.rpcx.spring.cloud;

import io.rpcx.server.RpcxServer;
import io.rpcx.spring.boot.autoconfigure.RpcxServerAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.client.serviceregistry.Registration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * A Spring Boot application with an RPCX server registers its RPCX port in the Spring Cloud
 * registry it already uses, as the metadata {@value SpringCloudDiscovery#PORT_KEY} beside its HTTP
 * port: written into its {@link Registration} before the registry is told (a fixed {@code
 * rpcx.server.port}), and once the RPCX server has started (a port chosen at start, {@code 0}):
 * into the registration again and, with Eureka, into the instance's metadata, which its client
 * sends the server with its next instance update.
 */
@AutoConfiguration(after = RpcxServerAutoConfiguration.class)
@ConditionalOnClass({Registration.class, RpcxServer.class})
@ConditionalOnBean(RpcxServer.class)
public class RpcxSpringCloudRegistrationAutoConfiguration {

  /** Made by Spring. */
  public RpcxSpringCloudRegistrationAutoConfiguration() {}

  @Bean
  static RpcxPortMetadata rpcxPortMetadata(Environment environment) {
    return new RpcxPortMetadata(environment);
  }

  @Bean
  RpcxPortPublisher rpcxPortPublisher(
      RpcxServer server,
      ObjectProvider<Registration> registrations,
      ObjectProvider<RpcxPortPublisher.Publisher> publishers) {
    return new RpcxPortPublisher(server, registrations, publishers);
  }

  /** With Eureka: the instance's metadata, sent to the Eureka server with its next update. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.netflix.appinfo.ApplicationInfoManager")
  static class Eureka {
    @Bean
    RpcxPortPublisher.Publisher rpcxEurekaPortPublisher(
        ObjectProvider<com.netflix.appinfo.ApplicationInfoManager> applicationInfo) {
      return port -> {
        com.netflix.appinfo.ApplicationInfoManager manager = applicationInfo.getIfAvailable();
        if (manager != null) {
          manager.registerAppMetadata(
              java.util.Map.of(SpringCloudDiscovery.PORT_KEY, Integer.toString(port)));
        }
      };
    }
  }
}
