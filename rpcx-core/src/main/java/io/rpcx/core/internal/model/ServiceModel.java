package io.rpcx.core.internal.model;

import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Map;

/**
 * A service as published: its name, the Java type it was built from, and its methods by published
 * name and by Java method. Immutable and thread-safe.
 */
public final class ServiceModel {
  private final String name;
  private final Class<?> type;
  private final Map<String, MethodModel> byName;
  private final Map<Method, MethodModel> byJavaMethod;

  ServiceModel(
      String name,
      Class<?> type,
      Map<String, MethodModel> byName,
      Map<Method, MethodModel> byJavaMethod) {
    this.name = name;
    this.type = type;
    this.byName = Map.copyOf(byName);
    this.byJavaMethod = Map.copyOf(byJavaMethod);
  }

  /** Published service name. */
  public String name() {
    return name;
  }

  /** The client interface or the implementation class the model was built from. */
  public Class<?> type() {
    return type;
  }

  /** The method published as {@code name}, or {@code null}. */
  public MethodModel method(String name) {
    return byName.get(name);
  }

  /** All methods. */
  public Collection<MethodModel> methods() {
    return byName.values();
  }

  /** Methods keyed by their Java method. */
  public Map<Method, MethodModel> methodsByJavaMethod() {
    return byJavaMethod;
  }

  @Override
  public String toString() {
    return name + " (" + type.getName() + ")";
  }
}
