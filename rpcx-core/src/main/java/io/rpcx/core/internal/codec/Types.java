package io.rpcx.core.internal.codec;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;

/** Helpers for declared generic types. */
public final class Types {
  private Types() {}

  /** The class a declared type erases to. */
  public static Class<?> rawType(Type type) {
    if (type instanceof Class) {
      return (Class<?>) type;
    }
    if (type instanceof ParameterizedType) {
      return (Class<?>) ((ParameterizedType) type).getRawType();
    }
    if (type instanceof GenericArrayType) {
      Class<?> component = rawType(((GenericArrayType) type).getGenericComponentType());
      return java.lang.reflect.Array.newInstance(component, 0).getClass();
    }
    if (type instanceof WildcardType) {
      return rawType(((WildcardType) type).getUpperBounds()[0]);
    }
    return Object.class;
  }

  /** The {@code index}th type argument of a parameterized type, with wildcards resolved to bounds. */
  static Type typeArgument(ParameterizedType type, int index) {
    Type argument = type.getActualTypeArguments()[index];
    if (argument instanceof WildcardType) {
      WildcardType wildcard = (WildcardType) argument;
      return wildcard.getLowerBounds().length > 0
          ? wildcard.getLowerBounds()[0]
          : wildcard.getUpperBounds()[0];
    }
    return argument;
  }

  /** A readable name of a declared type, e.g. {@code java.util.List<java.lang.String>}. */
  public static String name(Type type) {
    return type instanceof Class ? ((Class<?>) type).getTypeName() : type.getTypeName();
  }
}
