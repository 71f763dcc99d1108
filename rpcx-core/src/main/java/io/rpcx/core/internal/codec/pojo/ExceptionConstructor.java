package io.rpcx.core.internal.codec.pojo;

import io.rpcx.core.internal.codec.UnsupportedTypeException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The constructor a declared exception is rebuilt through on the receiving side, chosen once at
 * start-up, and where each of its parameters comes from: one of the exception's carried fields, or
 * the message of the {@code REMOTE_FAILURE}. An exception is never created any other way (its
 * fields are not set after the constructor), so what its constructor checks or derives holds.
 *
 * <p>In order of preference:
 *
 * <ol>
 *   <li>a constructor whose parameters are named as the fields (class files compiled with {@code
 *       -parameters}, as Spring Boot's and RPCX's builds do), and possibly {@code message}, a
 *       {@code String}; one that takes the message is preferred, so that the rebuilt exception's
 *       message is the thrower's;
 *   <li>the canonical constructor, as a record's: the fields' types in declaration order (a
 *       superclass's fields first); else the same after a {@code String}, the message;
 *   <li>for an exception without fields, a {@code (String)} constructor (the message), else a
 *       no-argument one.
 * </ol>
 *
 * Every carried field must be a parameter of the constructor chosen; an exception without one is
 * refused with what is missing. Immutable.
 */
final class ExceptionConstructor {
  /** The parameter name that takes the message of the failure. */
  static final String MESSAGE = "message";

  private final Constructor<?> constructor;
  /** Per field, in field number order (sorted names): its parameter. */
  private final int[] fieldParameters;
  /** The parameter that takes the message, or -1. */
  private final int messageParameter;

  private ExceptionConstructor(
      Constructor<?> constructor, int[] fieldParameters, int messageParameter) {
    this.constructor = constructor;
    this.fieldParameters = fieldParameters;
    this.messageParameter = messageParameter;
  }

  Constructor<?> constructor() {
    return constructor;
  }

  /** The parameter of field {@code index} (in field number order). */
  int[] fieldParameters() {
    return fieldParameters;
  }

  int messageParameter() {
    return messageParameter;
  }

  int parameterCount() {
    return constructor.getParameterCount();
  }

  /**
   * The constructor that rebuilds {@code type}, whose carried fields are {@code declared} (in
   * declaration order, a superclass's first) and {@code sorted} (in field number order), the same
   * fields; {@code open} says whether its non-public constructors may be used (not for the JDK's
   * classes).
   *
   * @throws UnsupportedTypeException if there is none, saying what is missing
   */
  static ExceptionConstructor of(
      Class<?> type, List<Field> declared, List<Field> sorted, boolean open) {
    Constructor<?>[] constructors = open ? type.getDeclaredConstructors() : type.getConstructors();
    Arrays.sort(constructors, (a, b) -> a.toGenericString().compareTo(b.toGenericString()));
    if (declared.isEmpty()) {
      ExceptionConstructor withMessage = withTypes(constructors, String.class);
      ExceptionConstructor plain = withMessage != null ? withMessage : withTypes(constructors);
      if (plain == null) {
        throw new UnsupportedTypeException(
            type.getName(), missing(type, constructors, declared, open));
      }
      return plain;
    }
    ExceptionConstructor byName = byName(constructors, sorted, true);
    if (byName == null) {
      byName = byName(constructors, sorted, false);
    }
    if (byName != null) {
      return byName;
    }
    ExceptionConstructor canonical = canonical(constructors, declared, sorted, false);
    if (canonical == null) {
      canonical = canonical(constructors, declared, sorted, true);
    }
    if (canonical != null) {
      return canonical;
    }
    throw new UnsupportedTypeException(type.getName(), missing(type, constructors, declared, open));
  }

  /**
   * A constructor whose parameters are all fields named as them, and {@code message} when {@code
   * withMessage}, taking every field; {@code null} if there is none.
   */
  private static ExceptionConstructor byName(
      Constructor<?>[] constructors, List<Field> sorted, boolean withMessage) {
    for (Constructor<?> constructor : constructors) {
      Parameter[] parameters = constructor.getParameters();
      if (parameters.length != sorted.size() + (withMessage ? 1 : 0)
          || (parameters.length > 0 && !parameters[0].isNamePresent())) {
        continue;
      }
      int[] fieldParameters = new int[sorted.size()];
      Arrays.fill(fieldParameters, -1);
      int message = -1;
      boolean matches = true;
      for (int p = 0; p < parameters.length && matches; p++) {
        int field = indexOf(sorted, parameters[p].getName());
        if (field >= 0 && fieldParameters[field] < 0
            && accepts(parameters[p].getType(), sorted.get(field).getType())) {
          fieldParameters[field] = p;
        } else if (withMessage && message < 0 && parameters[p].getName().equals(MESSAGE)
            && parameters[p].getType() == String.class) {
          message = p;
        } else {
          matches = false;
        }
      }
      if (matches) {
        return new ExceptionConstructor(constructor, fieldParameters, message);
      }
    }
    return null;
  }

  /**
   * For an exception without fields: the constructor of exactly {@code types}, {@code (String)}
   * taking the message, or {@code ()}; {@code null} if there is none.
   */
  private static ExceptionConstructor withTypes(Constructor<?>[] constructors, Class<?>... types) {
    for (Constructor<?> constructor : constructors) {
      if (Arrays.equals(constructor.getParameterTypes(), types)) {
        return new ExceptionConstructor(constructor, new int[0], types.length == 1 ? 0 : -1);
      }
    }
    return null;
  }

  /**
   * The constructor whose parameter types are the fields' in declaration order, after a {@code
   * String} when {@code withMessage}; {@code null} if there is none.
   */
  private static ExceptionConstructor canonical(
      Constructor<?>[] constructors, List<Field> declared, List<Field> sorted, boolean withMessage) {
    int offset = withMessage ? 1 : 0;
    for (Constructor<?> constructor : constructors) {
      Class<?>[] types = constructor.getParameterTypes();
      if (types.length != declared.size() + offset || (withMessage && types[0] != String.class)) {
        continue;
      }
      boolean matches = true;
      for (int i = 0; i < declared.size() && matches; i++) {
        matches = types[offset + i] == declared.get(i).getType();
      }
      if (matches) {
        int[] fieldParameters = new int[sorted.size()];
        for (int i = 0; i < sorted.size(); i++) {
          fieldParameters[i] = offset + declared.indexOf(sorted.get(i));
        }
        return new ExceptionConstructor(constructor, fieldParameters, withMessage ? 0 : -1);
      }
    }
    return null;
  }

  /** Whether a parameter of type {@code parameter} takes the value of a field of type {@code field}. */
  private static boolean accepts(Class<?> parameter, Class<?> field) {
    if (parameter.isPrimitive() || field.isPrimitive()) {
      return parameter == field || (!parameter.isPrimitive() && parameter.isAssignableFrom(box(field)));
    }
    return parameter.isAssignableFrom(field);
  }

  private static Class<?> box(Class<?> type) {
    return java.lang.invoke.MethodType.methodType(type).wrap().returnType();
  }

  private static int indexOf(List<Field> fields, String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Why no constructor rebuilds the exception, and what to add. */
  private static String missing(
      Class<?> type, Constructor<?>[] constructors, List<Field> declared, boolean open) {
    if (declared.isEmpty()) {
      return "it has no " + (open ? "" : "public ") + "(String) or no-argument constructor to"
          + " rebuild it with on the receiving side; add one";
    }
    String names = declared.stream().map(Field::getName).collect(Collectors.joining(", "));
    String types =
        declared.stream().map(f -> f.getType().getSimpleName()).collect(Collectors.joining(", "));
    StringBuilder reason =
        new StringBuilder("no constructor takes its fields (")
            .append(names)
            .append(") to rebuild it with on the receiving side");
    String closest = closest(constructors, declared);
    if (closest != null) {
      reason.append(" (").append(closest).append(')');
    }
    return reason
        .append("; add one whose parameters are named as the fields (compiled with -parameters),"
            + " or one of their types in declaration order (")
        .append(types)
        .append("), either optionally with a String message first; or make the fields it should"
            + " not carry transient")
        .toString();
  }

  /**
   * The constructor whose parameters, named as fields, take the most of them, and the fields it
   * leaves out: {@code "(String sku) leaves out requested, available"}; {@code null} if none takes
   * one (or the parameters have no names).
   */
  private static String closest(Constructor<?>[] constructors, List<Field> declared) {
    String best = null;
    int bestTaken = 0;
    for (Constructor<?> constructor : constructors) {
      Parameter[] parameters = constructor.getParameters();
      if (parameters.length == 0 || !parameters[0].isNamePresent()) {
        continue;
      }
      List<String> left = new ArrayList<>();
      int taken = 0;
      for (Field field : declared) {
        boolean found = false;
        for (Parameter parameter : parameters) {
          found |= parameter.getName().equals(field.getName());
        }
        if (found) {
          taken++;
        } else {
          left.add(field.getName());
        }
      }
      if (taken > bestTaken) {
        bestTaken = taken;
        best =
            Arrays.stream(parameters)
                    .map(p -> p.getType().getSimpleName() + " " + p.getName())
                    .collect(Collectors.joining(", ", "(", ")"))
                + (left.isEmpty()
                    ? " takes every field but has other parameters"
                    : " leaves out " + String.join(", ", left));
      }
    }
    return best;
  }
}
