package io.rpcx.spring.boot.autoconfigure;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.HashSet;
import java.util.Set;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;

/**
 * Registers what RPCX reaches by reflection from a service interface: the interface's methods, and
 * for every POJO, record, enum and declared exception its methods carry (through lists, maps,
 * arrays, {@code Optional}s and futures, and through their fields in turn), its constructors,
 * fields and methods. JDK types need nothing.
 */
final class ValueTypeHints {
  private static final MemberCategory[] VALUE_MEMBERS = {
    MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
    MemberCategory.INVOKE_DECLARED_METHODS,
    MemberCategory.ACCESS_DECLARED_FIELDS
  };

  private final RuntimeHints hints;
  private final Set<Class<?>> seen = new HashSet<>();

  ValueTypeHints(RuntimeHints hints) {
    this.hints = hints;
  }

  /** A client interface: its proxy and what its methods carry. */
  void clientInterface(Class<?> type) {
    hints.proxies().registerJdkProxy(type);
    serviceInterface(type);
  }

  /** A service implementation: its methods, and what the methods of its interfaces carry. */
  void serviceImplementation(Class<?> implementation) {
    if (implementation.isInterface()) {
      serviceInterface(implementation); // a @Bean method that declares the service interface
    }
    hints.reflection().registerType(implementation, MemberCategory.INVOKE_PUBLIC_METHODS);
    for (Class<?> type = implementation; type != null; type = type.getSuperclass()) {
      for (Class<?> candidate : type.getInterfaces()) {
        if (!isJdk(candidate)) {
          serviceInterface(candidate);
        }
      }
    }
  }

  private void serviceInterface(Class<?> type) {
    if (!seen.add(type)) {
      return;
    }
    hints.reflection().registerType(type, MemberCategory.INVOKE_PUBLIC_METHODS);
    for (Method method : type.getMethods()) {
      if (method.isDefault() || Modifier.isStatic(method.getModifiers())) {
        continue;
      }
      value(method.getGenericReturnType());
      for (Type parameter : method.getGenericParameterTypes()) {
        value(parameter);
      }
      for (Class<?> exception : method.getExceptionTypes()) {
        valueClass(exception);
      }
    }
  }

  private void value(Type type) {
    if (type instanceof Class<?> c) {
      valueClass(c);
    } else if (type instanceof ParameterizedType parameterized) {
      value(parameterized.getRawType());
      for (Type argument : parameterized.getActualTypeArguments()) {
        value(argument);
      }
    } else if (type instanceof GenericArrayType array) {
      value(array.getGenericComponentType());
    }
  }

  private void valueClass(Class<?> type) {
    if (type.isArray()) {
      valueClass(type.getComponentType());
      return;
    }
    if (type.isPrimitive() || isJdk(type) || !seen.add(type)) {
      return;
    }
    hints.reflection().registerType(type, VALUE_MEMBERS);
    for (Field field : type.getDeclaredFields()) {
      if (!Modifier.isStatic(field.getModifiers())) {
        value(field.getGenericType());
      }
    }
    if (type.getSuperclass() != null) {
      valueClass(type.getSuperclass()); // its fields are the value's too
    }
  }

  private static boolean isJdk(Class<?> type) {
    String name = type.getName();
    return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.");
  }
}
