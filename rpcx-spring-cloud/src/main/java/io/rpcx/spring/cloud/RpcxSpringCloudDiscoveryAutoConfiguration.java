package io.rpcx.spring.cloud;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.spring.boot.RpcxClientInterfaces;
import io.rpcx.spring.boot.autoconfigure.RpcxClientAutoConfiguration;
import io.rpcx.spring.boot.autoconfigure.RpcxZooKeeperAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.event.HeartbeatEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * The servers of the application's RPCX clients found through the Spring Cloud {@link
 * DiscoveryClient} it already has (Eureka, Consul, Nacos, Kubernetes, ZooKeeper, the simple one),
 * unless another discovery is configured ({@code rpcx.zookeeper.connect-string}, a {@link
 * ServiceDiscovery} bean) or {@code rpcx.client.spring-cloud.enabled=false}. Each RPCX service is
 * looked up under the service id {@code rpcx.client.spring-cloud.service-ids.<service>}, else its
 * own name; Spring Cloud's {@link HeartbeatEvent} (a catalog change) makes it look again at once.
 */
@AutoConfiguration(before = RpcxClientAutoConfiguration.class, after = RpcxZooKeeperAutoConfiguration.class)
@ConditionalOnClass({DiscoveryClient.class, RpcxClient.class})
@ConditionalOnBean(RpcxClientInterfaces.class)
@ConditionalOnBooleanProperty(name = "rpcx.client.spring-cloud.enabled", matchIfMissing = true)
@EnableConfigurationProperties(RpcxSpringCloudProperties.class)
public class RpcxSpringCloudDiscoveryAutoConfiguration {

  /** Made by Spring. */
  public RpcxSpringCloudDiscoveryAutoConfiguration() {}

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(ServiceDiscovery.class)
  SpringCloudDiscovery rpcxSpringCloudDiscovery(
      ObjectProvider<DiscoveryClient> discoveryClient, RpcxSpringCloudProperties properties) {
    // Asked for when the first proxy is made: the registries' own auto-configurations made it.
    SpringCloudDiscovery.Builder builder =
        SpringCloudDiscovery.builder(discoveryClient::getIfAvailable)
            .refreshInterval(properties.getRefreshInterval());
    properties.getServiceIds().forEach(builder::service);
    return builder.build();
  }

  @Bean
  @ConditionalOnBean(SpringCloudDiscovery.class)
  ApplicationListener<HeartbeatEvent> rpcxCatalogChanges(SpringCloudDiscovery discovery) {
    return event -> discovery.catalogChanged();
  }
}
