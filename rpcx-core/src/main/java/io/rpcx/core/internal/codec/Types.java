package io.rpcx.core.internal.codec;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

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

  /**
   * {@code type} with each type variable that {@code bindings} binds replaced by its binding, at
   * any depth: the declared type of a field of {@code Page<T>} as a field of {@code Page<User>}.
   * The types made here equal the JDK's own for the same declarations, so codecs found for either
   * are found for both.
   */
  public static Type substitute(Type type, Map<TypeVariable<?>, Type> bindings) {
    if (bindings.isEmpty()) {
      return type;
    }
    if (type instanceof TypeVariable) {
      return bindings.getOrDefault(type, type);
    }
    if (type instanceof ParameterizedType) {
      ParameterizedType parameterized = (ParameterizedType) type;
      Type owner = parameterized.getOwnerType();
      Type[] arguments = substitute(parameterized.getActualTypeArguments(), bindings);
      Type newOwner = owner == null ? null : substitute(owner, bindings);
      if (arguments == parameterized.getActualTypeArguments() && newOwner == owner) {
        return type;
      }
      return new Parameterized((Class<?>) parameterized.getRawType(), newOwner, arguments);
    }
    if (type instanceof GenericArrayType) {
      Type component = ((GenericArrayType) type).getGenericComponentType();
      Type newComponent = substitute(component, bindings);
      if (newComponent == component) {
        return type;
      }
      return newComponent instanceof Class
          ? java.lang.reflect.Array.newInstance((Class<?>) newComponent, 0).getClass()
          : new GenericArray(newComponent);
    }
    if (type instanceof WildcardType) {
      WildcardType wildcard = (WildcardType) type;
      Type[] upper = substitute(wildcard.getUpperBounds(), bindings);
      Type[] lower = substitute(wildcard.getLowerBounds(), bindings);
      if (upper == wildcard.getUpperBounds() && lower == wildcard.getLowerBounds()) {
        return type;
      }
      return new Wildcard(upper, lower);
    }
    return type;
  }

  /** The types substituted; the same array when nothing changed. */
  private static Type[] substitute(Type[] types, Map<TypeVariable<?>, Type> bindings) {
    Type[] result = types;
    for (int i = 0; i < types.length; i++) {
      Type substituted = substitute(types[i], bindings);
      if (substituted != types[i]) {
        if (result == types) {
          result = types.clone();
        }
        result[i] = substituted;
      }
    }
    return result;
  }

  /**
   * The bindings of {@code raw}'s type parameters to {@code arguments}, and those of each generic
   * superclass's type parameters, as its subclass declares them: what a field declared anywhere in
   * the hierarchy of {@code raw<arguments>} has for its type variables.
   */
  public static Map<TypeVariable<?>, Type> bindings(Class<?> raw, Type[] arguments) {
    Map<TypeVariable<?>, Type> bindings = new HashMap<>();
    TypeVariable<?>[] parameters = raw.getTypeParameters();
    for (int i = 0; i < parameters.length && arguments != null; i++) {
      bindings.put(parameters[i], arguments[i]);
    }
    for (Class<?> c = raw; c != null && c != Object.class; c = c.getSuperclass()) {
      Type superType = c.getGenericSuperclass();
      if (superType instanceof ParameterizedType) {
        ParameterizedType parameterized = (ParameterizedType) superType;
        TypeVariable<?>[] superParameters = c.getSuperclass().getTypeParameters();
        Type[] superArguments = parameterized.getActualTypeArguments();
        for (int i = 0; i < superParameters.length; i++) {
          bindings.put(superParameters[i], substitute(superArguments[i], bindings));
        }
      }
    }
    return bindings;
  }

  /** A parameterized type equal to the JDK's for the same raw type, owner and arguments. */
  private static final class Parameterized implements ParameterizedType {
    private final Class<?> raw;
    private final Type owner;
    private final Type[] arguments;

    Parameterized(Class<?> raw, Type owner, Type[] arguments) {
      this.raw = raw;
      this.owner = owner;
      this.arguments = arguments;
    }

    @Override
    public Type[] getActualTypeArguments() {
      return arguments.clone();
    }

    @Override
    public Type getRawType() {
      return raw;
    }

    @Override
    public Type getOwnerType() {
      return owner;
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof ParameterizedType)) {
        return false;
      }
      ParameterizedType that = (ParameterizedType) other;
      return raw.equals(that.getRawType())
          && Objects.equals(owner, that.getOwnerType())
          && Arrays.equals(arguments, that.getActualTypeArguments());
    }

    @Override
    public int hashCode() {
      // As sun.reflect's ParameterizedTypeImpl, so that both hash alike in a map.
      return Arrays.hashCode(arguments) ^ Objects.hashCode(owner) ^ Objects.hashCode(raw);
    }

    @Override
    public String getTypeName() {
      return raw.getTypeName()
          + Arrays.stream(arguments).map(Type::getTypeName).collect(Collectors.joining(", ", "<", ">"));
    }

    @Override
    public String toString() {
      return getTypeName();
    }
  }

  /** A generic array type equal to the JDK's for the same component. */
  private static final class GenericArray implements GenericArrayType {
    private final Type component;

    GenericArray(Type component) {
      this.component = component;
    }

    @Override
    public Type getGenericComponentType() {
      return component;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof GenericArrayType
          && Objects.equals(component, ((GenericArrayType) other).getGenericComponentType());
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(component);
    }

    @Override
    public String getTypeName() {
      return component.getTypeName() + "[]";
    }

    @Override
    public String toString() {
      return getTypeName();
    }
  }

  /** A wildcard type equal to the JDK's for the same bounds. */
  private static final class Wildcard implements WildcardType {
    private final Type[] upper;
    private final Type[] lower;

    Wildcard(Type[] upper, Type[] lower) {
      this.upper = upper;
      this.lower = lower;
    }

    @Override
    public Type[] getUpperBounds() {
      return upper.clone();
    }

    @Override
    public Type[] getLowerBounds() {
      return lower.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof WildcardType
          && Arrays.equals(lower, ((WildcardType) other).getLowerBounds())
          && Arrays.equals(upper, ((WildcardType) other).getUpperBounds());
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(lower) ^ Arrays.hashCode(upper);
    }

    @Override
    public String getTypeName() {
      return lower.length > 0
          ? "? super " + lower[0].getTypeName()
          : upper[0] == Object.class ? "?" : "? extends " + upper[0].getTypeName();
    }

    @Override
    public String toString() {
      return getTypeName();
    }
  }
}
