package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.discovery.ServiceRegistrar;
import io.rpcx.server.RefusalListener;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.spring.boot.RpcxServerBuilderCustomizer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * An {@link RpcxServer} publishing the application's {@code @RPCXServer} beans, when it has some:
 * configured by {@code rpcx.server.*}, then instrumented, then given the {@link ServerInterceptor}
 * and {@link RefusalListener} beans in {@code @Order}, then customized by the {@link
 * RpcxServerBuilderCustomizer} beans. {@link RpcxServerLifecycle} starts and stops it with the
 * context. {@code rpcx.server.enabled=false} publishes nothing.
 */
@AutoConfiguration(after = RpcxZooKeeperAutoConfiguration.class)
@ConditionalOnClass(RpcxServer.class)
@ConditionalOnBean(annotation = RPCXServer.class)
@ConditionalOnBooleanProperty(name = "rpcx.server.enabled", matchIfMissing = true)
@EnableConfigurationProperties(RpcxProperties.class)
public class RpcxServerAutoConfiguration {

  /** Made by Spring. */
  public RpcxServerAutoConfiguration() {}

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  RpcxServer rpcxServer(
      RpcxProperties properties,
      ListableBeanFactory beans,
      ObjectProvider<ServiceRegistrar> registrar,
      ObjectProvider<SslBundles> sslBundles,
      ObjectProvider<ServerExecutor> executor,
      ObjectProvider<ServerInstrumentation> instrumentation,
      ObjectProvider<ServerInterceptor> interceptors,
      ObjectProvider<RefusalListener> refusalListeners,
      ObjectProvider<RpcxServerBuilderCustomizer> customizers) {
    RpcxServer.Builder builder = RpcxServer.builder();
    ServerProperties serverProperties =
        new ServerProperties(properties.getServer(), sslBundles, classLoader(beans));
    serverProperties.applyTo(builder);
    ServiceBeans.publish(beans, builder);
    registrar.ifAvailable(builder::registrar);
    executor.ifAvailable(each -> each.applyTo(builder));
    instrumentation.orderedStream().forEach(each -> each.instrument(builder));
    serverProperties.applyAuthenticationTo(builder);
    interceptors.orderedStream().forEach(builder::intercept);
    refusalListeners.orderedStream().forEach(builder::refusalListener);
    customizers.orderedStream().forEach(each -> each.customize(builder));
    return builder.build();
  }

  @Bean
  RpcxServerLifecycle rpcxServerLifecycle(
      RpcxServer server, ConfigurableEnvironment environment, RpcxProperties properties) {
    return new RpcxServerLifecycle(
        server, environment, properties.getServer().getHttp().isEnabled());
  }

  /** Where the application's classes are loaded from, and so the optional modules looked for. */
  private static ClassLoader classLoader(ListableBeanFactory beans) {
    ClassLoader loader =
        beans instanceof ConfigurableBeanFactory configurable
            ? configurable.getBeanClassLoader()
            : null;
    return loader != null ? loader : ClassUtils.getDefaultClassLoader();
  }

  /**
   * With {@code spring.threads.virtual.enabled} on Java 21 or later: a virtual thread per call
   * ({@link RpcxServer.Builder#virtualThreads()}), under the server's limit of calls in flight.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnThreading(Threading.VIRTUAL)
  static class VirtualThreads {
    @Bean
    ServerExecutor rpcxServerVirtualThreads(RpcxProperties properties) {
      PropertyTarget target = new PropertyTarget("rpcx.server");
      String why =
          "with spring.threads.virtual.enabled every call runs on a virtual thread of its own,"
              + " so the worker pool's settings do not apply; unset it, or turn virtual threads off";
      Integer threads = properties.getServer().getWorkerThreads();
      if (threads != null) {
        throw target.invalid("worker-threads", threads, "no value: " + why, null);
      }
      Integer queued = properties.getServer().getMaxQueuedCalls();
      if (queued != null) {
        throw target.invalid("max-queued-calls", queued, "no value: " + why, null);
      }
      return RpcxServer.Builder::virtualThreads;
    }
  }

  /** Where the server runs its calls, when not on its own worker pool. */
  @FunctionalInterface
  interface ServerExecutor {
    void applyTo(RpcxServer.Builder builder);
  }
}
