package io.rpcx.spring.cloud;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.client.serviceregistry.Registration;
import org.springframework.core.env.Environment;

/**
 * Writes a fixed RPCX port ({@code rpcx.server.port}, 9000 by default) into the metadata of every
 * Spring Cloud {@link Registration} (and Eureka's instance configuration) as it is made, so that
 * the registry gets it with the first registration, whenever the registry registers.
 */
final class RpcxPortMetadata implements BeanPostProcessor {
  private static final Logger logger = LoggerFactory.getLogger(RpcxPortMetadata.class);
  private static final String EUREKA_INSTANCE_CONFIG =
      "org.springframework.cloud.netflix.eureka.EurekaInstanceConfigBean";

  private final Environment environment;

  RpcxPortMetadata(Environment environment) {
    this.environment = environment;
  }

  /** The RPCX port if it is fixed, else 0: known only once the server started. */
  private int fixedPort() {
    return environment.getProperty("rpcx.server.port", Integer.class, 9000);
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    int port = fixedPort();
    if (port <= 0) {
      return bean;
    }
    if (bean instanceof Registration registration) {
      put(registration.getMetadata(), port, beanName);
    } else if (bean.getClass().getName().equals(EUREKA_INSTANCE_CONFIG)) {
      put(eurekaMetadata(bean), port, beanName);
    }
    return bean;
  }

  /** The metadata map of Eureka's instance configuration, read without naming its class. */
  @SuppressWarnings("unchecked")
  private static Map<String, String> eurekaMetadata(Object instanceConfig) {
    try {
      return (Map<String, String>) instanceConfig.getClass().getMethod("getMetadataMap").invoke(instanceConfig);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read the metadata of " + instanceConfig, e);
    }
  }

  static void put(Map<String, String> metadata, int port, String where) {
    if (metadata == null) {
      logger.warn("{} has no metadata: its registry cannot publish the RPCX port {}", where, port);
      return;
    }
    try {
      metadata.put(SpringCloudDiscovery.PORT_KEY, Integer.toString(port));
    } catch (UnsupportedOperationException e) {
      logger.warn("The metadata of {} cannot be changed: its registry cannot publish the RPCX port {}",
          where, port);
    }
  }
}
