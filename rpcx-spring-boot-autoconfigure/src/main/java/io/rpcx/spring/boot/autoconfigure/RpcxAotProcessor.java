package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.spring.boot.RpcxClientInterfaces;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.ConstructorArgumentValues.ValueHolder;
import org.springframework.util.ClassUtils;

/**
 * Runtime hints for ahead-of-time processing ({@code spring-boot:process-aot}): each client
 * interface's JDK proxy, and reflection on the service interfaces, the implementations and every
 * value type their methods reach ({@link ValueTypeHints}).
 */
final class RpcxAotProcessor implements BeanFactoryInitializationAotProcessor {

  @Override
  public BeanFactoryInitializationAotContribution processAheadOfTime(
      ConfigurableListableBeanFactory beanFactory) {
    List<Class<?>> clients = clientInterfaces(beanFactory);
    List<Class<?>> services = new ArrayList<>();
    for (String name : beanFactory.getBeanNamesForAnnotation(RPCXServer.class)) {
      Class<?> type = beanFactory.getType(name, false);
      if (type != null) {
        services.add(ClassUtils.getUserClass(type));
      }
    }
    if (clients.isEmpty() && services.isEmpty()) {
      return null;
    }
    return (generationContext, code) -> {
      ValueTypeHints hints = new ValueTypeHints(generationContext.getRuntimeHints());
      clients.forEach(hints::clientInterface);
      services.forEach(hints::serviceImplementation);
    };
  }

  /** What {@code @EnableRpcxClients} registered, read from the bean definitions it made. */
  private static List<Class<?>> clientInterfaces(ConfigurableListableBeanFactory beanFactory) {
    List<Class<?>> interfaces = new ArrayList<>();
    for (String name : beanFactory.getBeanNamesForType(RpcxClientInterfaces.class, true, false)) {
      BeanDefinition definition = beanFactory.getBeanDefinition(name);
      ValueHolder types =
          definition.getConstructorArgumentValues().getIndexedArgumentValue(0, Class[].class);
      if (types != null) {
        interfaces.addAll(List.of((Class<?>[]) types.getValue()));
      }
    }
    return interfaces;
  }
}
