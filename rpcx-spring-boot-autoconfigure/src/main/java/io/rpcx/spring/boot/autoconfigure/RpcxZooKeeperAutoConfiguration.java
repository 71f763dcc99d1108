package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * A {@link ZooKeeperRegistry} when {@code rpcx.zookeeper.connect-string} is set and
 * rpcx-registry-zookeeper is on the class path: the client finds the servers of its services in it,
 * the server registers its services there. Closed with the context, after the server withdrew.
 */
@AutoConfiguration
@ConditionalOnClass(ZooKeeperRegistry.class)
@ConditionalOnProperty("rpcx.zookeeper.connect-string")
@EnableConfigurationProperties(RpcxProperties.class)
public class RpcxZooKeeperAutoConfiguration {

  /** Made by Spring. */
  public RpcxZooKeeperAutoConfiguration() {}

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  ZooKeeperRegistry rpcxZooKeeperRegistry(RpcxProperties properties) {
    RpcxProperties.ZooKeeper zookeeper = properties.getZookeeper();
    PropertyTarget target = new PropertyTarget("rpcx.zookeeper");
    ZooKeeperRegistry.Builder builder = ZooKeeperRegistry.builder();
    target.set("connect-string", zookeeper.getConnectString(), builder::connectString);
    target.set("base-path", zookeeper.getBasePath(), builder::basePath);
    target.set("session-timeout", zookeeper.getSessionTimeout(), builder::sessionTimeout);
    target.set("connection-timeout", zookeeper.getConnectionTimeout(), builder::connectionTimeout);
    return builder.build();
  }
}
