package io.rpcx.server.internal.dispatch;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.config.ServiceBinding;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The services a server publishes: the implementations given to its builder, then those its
 * package scans find, each created through its public no-argument constructor; checked and
 * modelled once, before the server starts.
 */
public final class ServiceInstances {
  private static final Logger logger = LoggerFactory.getLogger(ServiceInstances.class);

  private ServiceInstances() {}

  /**
   * The published services of {@code config}.
   *
   * @throws IllegalArgumentException naming the class and method of the first mistake found, or
   *     if there is no service at all
   */
  public static PublishedServices publish(ServerConfig config) {
    CodecRegistry codecs = StandardCodecs.registry();
    List<ServiceModel> models = new ArrayList<>();
    List<Object> implementations = new ArrayList<>();
    for (ServiceBinding service : config.services()) {
      models.add(
          service.name() == null
              ? ServiceModels.forServer(service.describedBy(), codecs)
              : ServiceModels.forServer(
                  service.name(), service.describedBy(), service.interfaces(), codecs));
      implementations.add(service.implementation());
    }
    for (String scanPackage : config.scan().packages()) {
      List<Class<?>> found = config.scan().find(scanPackage, RPCXServer.class);
      if (found.isEmpty()) {
        logger.warn("Scanning {} found no class annotated @RPCXServer", scanPackage);
      }
      for (Class<?> type : found) {
        models.add(ServiceModels.forServer(type, codecs));
        implementations.add(instantiate(type, scanPackage));
      }
    }
    if (models.isEmpty()) {
      throw new IllegalArgumentException(
          "no service to publish: call service(...) or scan(...) on the builder");
    }
    if (config.reflection()) {
      ServiceModel reflection =
          ServiceModels.forServer(
              ReflectionService.NAME, ServerReflection.class, List.of(ReflectionService.class), codecs);
      models.add(reflection);
      implementations.add(new ServerReflection(List.copyOf(models)));
    }
    ServerInterceptor blocking = MethodPlacement.blockingInterceptor(config.interceptors());
    if (blocking != null && config.nonBlockingOnEventLoop() && !config.direct()) {
      logger.info(
          "Every call runs on the executor: interceptor {} is annotated @Blocking",
          blocking.getClass().getName());
    }
    return PublishedServices.of(
        models, implementations, config.nonBlockingOnEventLoop() && blocking == null);
  }

  private static Object instantiate(Class<?> type, String scanPackage) {
    try {
      Constructor<?> constructor = type.getConstructor();
      return constructor.newInstance();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(
          "cannot create " + type.getName() + " found by scanning " + scanPackage
              + ": it needs a public no-argument constructor, or register an instance with"
              + " service(...)");
    } catch (ReflectiveOperationException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IllegalArgumentException(
          "cannot create " + type.getName() + " found by scanning " + scanPackage + ": " + cause,
          cause);
    }
  }
}
