package io.rpcx.core.reflection;

import java.util.List;

/**
 * One published service: its name, its methods sorted by published name, and every POJO, record,
 * enum and protobuf message type its methods reach, sorted by name. Immutable.
 *
 * @param name the published service name
 * @param methods the methods, sorted by published name
 * @param types every type the methods' parameters and results reach that has fields or constants
 */
public record ServiceDescription(String name, List<MethodDescription> methods, List<TypeDescription> types) {
  /** Copies the lists. */
  public ServiceDescription {
    methods = List.copyOf(methods);
    types = List.copyOf(types);
  }

  /** The method published as {@code name}, or {@code null}. */
  public MethodDescription method(String name) {
    for (MethodDescription method : methods) {
      if (method.name().equals(name)) {
        return method;
      }
    }
    return null;
  }

  /** The type whose descriptor is {@code name} ({@code OrderInfo}, {@code Page<User>}), or {@code null}. */
  public TypeDescription type(String name) {
    for (TypeDescription type : types) {
      if (type.name().equals(name)) {
        return type;
      }
    }
    return null;
  }
}
