package io.rpcx.spring.boot;

import io.rpcx.server.RpcxServer;

/**
 * Changes the builder of the application's {@code RpcxServer} after the {@code rpcx.server.*}
 * properties, the {@code @RPCXServer} beans, the observation instrumentation and the {@code
 * ServerInterceptor} beans were applied to it. Beans of this type run in {@code @Order}.
 *
 * <pre>{@code
 * @Bean
 * RpcxServerBuilderCustomizer quietExpectedErrors() {
 *   return builder -> builder.exceptionLogging(ExceptionLogging.off(), ExceptionLogging.withStackTrace(Level.ERROR));
 * }
 * }</pre>
 */
@FunctionalInterface
public interface RpcxServerBuilderCustomizer {

  /** Changes {@code builder}. */
  void customize(RpcxServer.Builder builder);
}
