package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.server.RpcxServer;
import java.util.ArrayList;
import java.util.List;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The beans annotated {@code @RPCXServer} (their class, or the {@code @Bean} method that makes them), published on the server as they are (so that their
 * proxies' advice, {@code @Transactional} say, applies to remote calls), described by the class
 * behind any proxy, and with the methods of that class's own service interfaces only: not of the
 * interfaces of the JDK or Spring it may implement too ({@code InitializingBean}, or a proxy's
 * {@code Advised}).
 */
final class ServiceBeans {
  private ServiceBeans() {}

  /** Publishes every {@code @RPCXServer} bean of {@code beans} on {@code builder}. */
  static void publish(ListableBeanFactory beans, RpcxServer.Builder builder) {
    for (String name : beans.getBeanNamesForAnnotation(RPCXServer.class)) {
      // on the class, or on the @Bean method that made it
      RPCXServer annotation = beans.findAnnotationOnBean(name, RPCXServer.class);
      Object bean = beans.getBean(name);
      Class<?> implementation = AopProxyUtils.ultimateTargetClass(bean);
      builder.service(
          annotation.name(), bean, implementation, serviceInterfaces(implementation, name));
    }
  }

  private static Class<?>[] serviceInterfaces(Class<?> implementation, String beanName) {
    List<Class<?>> interfaces = new ArrayList<>();
    for (Class<?> candidate : ClassUtils.getAllInterfacesForClassAsSet(implementation)) {
      String name = candidate.getName();
      if (!name.startsWith("java.")
          && !name.startsWith("javax.")
          && !name.startsWith("jdk.")
          && !name.startsWith("org.springframework.")) {
        interfaces.add(candidate);
      }
    }
    if (interfaces.isEmpty()) {
      throw new IllegalStateException(
          "The bean '" + beanName + "' (" + implementation.getName() + ") is annotated"
              + " @RPCXServer but implements no service interface: RPCX publishes the methods of"
              + " the interfaces a service class implements");
    }
    return interfaces.toArray(new Class<?>[0]);
  }
}
