package io.rpcx.spring.cloud;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code rpcx.client.spring-cloud.*}: how RPCX clients find their servers through Spring Cloud's
 * DiscoveryClient.
 */
@ConfigurationProperties("rpcx.client.spring-cloud")
public class RpcxSpringCloudProperties {
  /** Whether RPCX clients find their servers through the Spring Cloud DiscoveryClient. */
  private boolean enabled = true;

  /**
   * The Spring Cloud service id (the server application's spring.application.name) of each RPCX
   * service; a service not named here is looked up under its own name.
   */
  private Map<String, String> serviceIds = new LinkedHashMap<>();

  /** How often each service id's instances are asked for again. */
  private Duration refreshInterval = Duration.ofSeconds(5);

  /** Made by Spring. */
  public RpcxSpringCloudProperties() {}

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Map<String, String> getServiceIds() {
    return serviceIds;
  }

  public void setServiceIds(Map<String, String> serviceIds) {
    this.serviceIds = serviceIds;
  }

  public Duration getRefreshInterval() {
    return refreshInterval;
  }

  public void setRefreshInterval(Duration refreshInterval) {
    this.refreshInterval = refreshInterval;
  }
}
