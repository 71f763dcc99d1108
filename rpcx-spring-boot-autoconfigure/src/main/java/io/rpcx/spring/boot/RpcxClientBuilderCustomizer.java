package io.rpcx.spring.boot;

import io.rpcx.client.RpcxClient;

/**
 * Changes the builder of the application's {@code RpcxClient} after the {@code rpcx.client.*}
 * properties, the observation instrumentation and the {@code ClientInterceptor} beans were applied
 * to it: for what properties do not cover (a discovery of your own, a callback executor). Beans of
 * this type run in {@code @Order}.
 *
 * <pre>{@code
 * @Bean
 * RpcxClientBuilderCustomizer consulDiscovery(ConsulDiscovery discovery) {
 *   return builder -> builder.discovery(discovery);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface RpcxClientBuilderCustomizer {

  /** Changes {@code builder}. */
  void customize(RpcxClient.Builder builder);
}
