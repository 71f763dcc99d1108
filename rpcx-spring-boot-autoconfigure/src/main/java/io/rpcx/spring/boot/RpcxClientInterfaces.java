package io.rpcx.spring.boot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConstructorArgumentValues.ValueHolder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * The {@code @RPCXClient} interfaces that {@link EnableRpcxClients} registered as beans, itself a
 * bean ({@code rpcxClientInterfaces}): the client checks them when it is built, maps {@code
 * rpcx.client.services.<name>} to them, and the health indicator reports their servers. Immutable.
 */
public final class RpcxClientInterfaces {
  static final String BEAN = "rpcxClientInterfaces";

  private final List<Class<?>> types;

  /** The interfaces {@code types}; made by Spring from the bean definition. */
  RpcxClientInterfaces(Class<?>[] types) {
    this.types = List.of(types);
  }

  /** The interfaces, in the order they were registered. */
  public List<Class<?>> types() {
    return types;
  }

  /**
   * Adds {@code types} to the bean of the interfaces, registering it with the first; the
   * constructor argument stays a {@code Class[]}, which ahead-of-time processing can write out.
   */
  static void register(BeanDefinitionRegistry registry, Collection<Class<?>> types) {
    Set<Class<?>> all = new LinkedHashSet<>();
    if (registry.containsBeanDefinition(BEAN)) {
      BeanDefinition existing = registry.getBeanDefinition(BEAN);
      ValueHolder holder =
          existing.getConstructorArgumentValues().getIndexedArgumentValue(0, Class[].class);
      if (holder != null) {
        all.addAll(List.of((Class<?>[]) holder.getValue()));
      }
      registry.removeBeanDefinition(BEAN);
    }
    all.addAll(types);
    RootBeanDefinition definition = new RootBeanDefinition(RpcxClientInterfaces.class);
    definition.getConstructorArgumentValues()
        .addIndexedArgumentValue(0, new ArrayList<>(all).toArray(new Class<?>[0]));
    definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
    registry.registerBeanDefinition(BEAN, definition);
  }
}
