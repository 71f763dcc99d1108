package io.rpcx.spring.boot;

import io.rpcx.annotation.RPCXClient;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.ResourceLoaderAware;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.annotation.AnnotationAttributes;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * What {@link EnableRpcxClients} imports: finds the {@code @RPCXClient} interfaces and registers,
 * for each, a bean made by {@code rpcxClient.create(type)} with its target type set (so that
 * injection by type needs no early instance), and adds them to the {@link RpcxClientInterfaces}
 * bean, which the client checks when it is built.
 */
final class RpcxClientsRegistrar
    implements ImportBeanDefinitionRegistrar, EnvironmentAware, ResourceLoaderAware {
  private Environment environment;
  private ResourceLoader resourceLoader;

  /** Made by Spring for each {@code @EnableRpcxClients}. */
  RpcxClientsRegistrar() {}

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  @Override
  public void setResourceLoader(ResourceLoader resourceLoader) {
    this.resourceLoader = resourceLoader;
  }

  @Override
  public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
    AnnotationAttributes attributes =
        AnnotationAttributes.fromMap(
            metadata.getAnnotationAttributes(EnableRpcxClients.class.getName(), true));
    ClassLoader classLoader = resourceLoader.getClassLoader();
    Set<Class<?>> interfaces = new LinkedHashSet<>();
    for (String type : attributes.getStringArray("types")) {
      interfaces.add(checked(ClassUtils.resolveClassName(type, classLoader), metadata));
    }
    for (String basePackage : basePackages(attributes, metadata)) {
      for (BeanDefinition candidate : scanner().findCandidateComponents(basePackage)) {
        interfaces.add(ClassUtils.resolveClassName(candidate.getBeanClassName(), classLoader));
      }
    }
    for (Class<?> type : interfaces) {
      String name = type.getName();
      if (!registry.containsBeanDefinition(name)) {
        registry.registerBeanDefinition(name, clientBean(type));
      }
    }
    RpcxClientInterfaces.register(registry, interfaces);
  }

  /** The bean of {@code type}: {@code rpcxClient.create(type)}. */
  private static RootBeanDefinition clientBean(Class<?> type) {
    RootBeanDefinition definition = new RootBeanDefinition();
    definition.setTargetType(type);
    definition.setFactoryBeanName(EnableRpcxClients.CLIENT_BEAN);
    definition.setFactoryMethodName("create");
    definition.getConstructorArgumentValues().addIndexedArgumentValue(0, type);
    return definition;
  }

  private static Class<?> checked(Class<?> type, AnnotationMetadata metadata) {
    if (!type.isInterface() || !type.isAnnotationPresent(RPCXClient.class)) {
      throw new IllegalArgumentException(
          "@EnableRpcxClients on " + metadata.getClassName() + " names " + type.getName()
              + " in types, which is not an interface annotated @RPCXClient");
    }
    return type;
  }

  private static List<String> basePackages(
      AnnotationAttributes attributes, AnnotationMetadata metadata) {
    List<String> packages = new ArrayList<>(List.of(attributes.getStringArray("basePackages")));
    for (String type : attributes.getStringArray("basePackageClasses")) {
      packages.add(ClassUtils.getPackageName(type));
    }
    if (packages.isEmpty() && attributes.getStringArray("types").length == 0) {
      packages.add(ClassUtils.getPackageName(metadata.getClassName()));
    }
    return packages;
  }

  /** Finds interfaces annotated {@code @RPCXClient}, which the default scanner would skip. */
  private ClassPathScanningCandidateComponentProvider scanner() {
    ClassPathScanningCandidateComponentProvider scanner =
        new ClassPathScanningCandidateComponentProvider(false, environment) {
          @Override
          protected boolean isCandidateComponent(AnnotatedBeanDefinition definition) {
            return definition.getMetadata().isInterface()
                && definition.getMetadata().isIndependent();
          }
        };
    scanner.setResourceLoader(resourceLoader);
    scanner.addIncludeFilter(new AnnotationTypeFilter(RPCXClient.class, false, true));
    return scanner;
  }
}
