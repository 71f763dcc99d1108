package io.rpcx.spring.boot.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;
import io.rpcx.client.RpcxClient;
import io.rpcx.micrometer.RpcxClientMeters;
import io.rpcx.micrometer.RpcxClientMetrics;
import io.rpcx.micrometer.RpcxClientObservationConvention;
import io.rpcx.micrometer.RpcxClientObservations;
import io.rpcx.micrometer.RpcxMeterObservationHandler;
import io.rpcx.micrometer.RpcxServerMeters;
import io.rpcx.micrometer.RpcxServerMetrics;
import io.rpcx.micrometer.RpcxServerObservationConvention;
import io.rpcx.micrometer.RpcxServerObservations;
import io.rpcx.micrometer.RpcxStreamMessagesHandler;
import io.rpcx.server.RpcxServer;
import io.rpcx.spring.boot.EnableRpcxClients;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Observes calls through the application's {@link ObservationRegistry} (timers, and spans with
 * Micrometer Tracing, named after the OpenTelemetry RPC conventions) and binds the client's and
 * server's gauges to its {@link MeterRegistry}, with rpcx-micrometer on the class path. The timers
 * of RPCX's observations are made by {@link RpcxMeterObservationHandler} (each found once and kept)
 * rather than by Micrometer's default handler, which stays in charge of every other observation. A bean of
 * {@link RpcxClientObservationConvention} or {@link RpcxServerObservationConvention} renames and
 * retags; {@code rpcx.observations.metrics-only=true} records the timers straight into the
 * MeterRegistry instead (a fraction of the cost, no tracing); {@code
 * rpcx.observations.enabled=false} turns all of it off. Either way, stream calls count their
 * messages ({@code rpcx.client.stream.messages.*}, {@code rpcx.server.stream.messages.*}).
 */
@AutoConfiguration(
    after = {RpcxClientAutoConfiguration.class, RpcxServerAutoConfiguration.class},
    afterName = {
      "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
    })
@ConditionalOnClass({ObservationRegistry.class, RpcxClientObservations.class})
@ConditionalOnBooleanProperty(name = "rpcx.observations.enabled", matchIfMissing = true)
public class RpcxObservationAutoConfiguration {
  static final String METRICS_ONLY = "rpcx.observations.metrics-only";

  /** Made by Spring. */
  public RpcxObservationAutoConfiguration() {}

  /** The client's observations, added before the application's interceptors. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(RpcxClient.class)
  @ConditionalOnBean(ObservationRegistry.class)
  @ConditionalOnBooleanProperty(name = METRICS_ONLY, havingValue = false, matchIfMissing = true)
  static class ClientObservations {
    @Bean
    ClientInstrumentation rpcxClientObservations(
        ObservationRegistry registry, ObjectProvider<RpcxClientObservationConvention> convention) {
      RpcxClientObservationConvention custom = convention.getIfAvailable();
      return builder ->
          builder.intercept(
              custom == null
                  ? RpcxClientObservations.interceptor(registry)
                  : RpcxClientObservations.interceptor(registry, custom));
    }
  }

  /** The server's observations, added before the application's interceptors. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(RpcxServer.class)
  @ConditionalOnBean(ObservationRegistry.class)
  @ConditionalOnBooleanProperty(name = METRICS_ONLY, havingValue = false, matchIfMissing = true)
  static class ServerObservations {
    @Bean
    ServerInstrumentation rpcxServerObservations(
        ObservationRegistry registry, ObjectProvider<RpcxServerObservationConvention> convention) {
      return builder ->
          RpcxServerObservations.instrument(builder, registry, convention.getIfAvailable());
    }
  }

  /**
   * The handlers that make the observations' meters, which Spring Boot adds to the
   * ObservationRegistry: the timers, by a meter handler ordered before Boot's own, so that Boot's
   * grouping (first matching) gives RPCX's observations to it and every other observation to Boot's
   * (with tracing, Boot wraps both for exemplars); and the counters of stream messages beside them.
   * This configuration runs after Boot's metrics auto-configuration, whose default handler is made
   * only while no other meter handler is defined.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  @ConditionalOnBean({ObservationRegistry.class, MeterRegistry.class})
  @ConditionalOnBooleanProperty(name = METRICS_ONLY, havingValue = false, matchIfMissing = true)
  static class ObservationMeters {
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    RpcxMeterObservationHandler rpcxMeterObservationHandler(MeterRegistry registry) {
      return new RpcxMeterObservationHandler(registry);
    }

    @Bean
    RpcxStreamMessagesHandler rpcxStreamMessagesHandler(MeterRegistry registry) {
      return new RpcxStreamMessagesHandler(registry);
    }
  }

  /**
   * With {@code rpcx.observations.metrics-only}: the same timers recorded straight into the
   * MeterRegistry, without Observation's per-call handlers (and without tracing).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  @ConditionalOnBean(MeterRegistry.class)
  @ConditionalOnBooleanProperty(METRICS_ONLY)
  static class Meters {
    @Bean
    @ConditionalOnClass(RpcxClient.class)
    ClientInstrumentation rpcxClientMeters(MeterRegistry registry) {
      return builder -> builder.intercept(RpcxClientMeters.interceptor(registry));
    }

    @Bean
    @ConditionalOnClass(RpcxServer.class)
    ServerInstrumentation rpcxServerMeters(MeterRegistry registry) {
      return builder -> RpcxServerMeters.instrument(builder, registry);
    }
  }

  /** The gauges and counters of the client and the server, bound by Spring Boot's metrics. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  static class Gauges {
    @Bean
    @ConditionalOnBean(name = EnableRpcxClients.CLIENT_BEAN)
    MeterBinder rpcxClientMetrics(ObjectProvider<RpcxClient> client) {
      return registry -> new RpcxClientMetrics(client.getObject()).bindTo(registry);
    }

    @Bean
    @ConditionalOnBean(RpcxServer.class)
    MeterBinder rpcxServerMetrics(ObjectProvider<RpcxServer> server) {
      return registry -> new RpcxServerMetrics(server.getObject()).bindTo(registry);
    }
  }
}
