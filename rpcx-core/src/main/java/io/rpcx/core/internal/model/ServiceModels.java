package io.rpcx.core.internal.model;

import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.OwnDeadline;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.annotation.RoutingKey;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.StreamCodec;
import io.rpcx.core.internal.codec.UnsupportedTypeException;
import io.rpcx.core.internal.codec.ValueCodec;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Turns annotated types into {@link ServiceModel}s, once, at start-up. Every mistake is reported
 * here, naming the class and the method, so that no call ever fails for a reason visible in the
 * code: a missing or empty name, duplicate published names, unsupported parameter or result types,
 * a service class without a service interface.
 */
public final class ServiceModels {
  private ServiceModels() {}

  /** The model of a client interface annotated {@link RPCXClient}. */
  public static ServiceModel forClient(Class<?> type, CodecRegistry codecs) {
    if (!type.isInterface()) {
      throw new IllegalArgumentException(
          type.getName() + " is not an interface: RPCX client proxies implement an interface"
              + " annotated @RPCXClient");
    }
    RPCXClient annotation = type.getAnnotation(RPCXClient.class);
    if (annotation == null) {
      throw new IllegalArgumentException(type.getName() + " is not annotated @RPCXClient");
    }
    String service = annotation.name().strip();
    if (service.isEmpty()) {
      throw new IllegalArgumentException("@RPCXClient on " + type.getName() + " has an empty name");
    }
    Names.checkService(service, "@RPCXClient on " + type.getName());
    if (annotation.timeoutMillis() < 0) {
      throw new IllegalArgumentException(
          "@RPCXClient on " + type.getName() + " has timeoutMillis " + annotation.timeoutMillis()
              + " (expected: >= 0)");
    }
    List<Method> methods = remoteMethods(type);
    return build(service, type, methods, Map.of(), annotation.timeoutMillis(), codecs);
  }

  /** The model of a service implementation class annotated {@link RPCXServer}. */
  public static ServiceModel forServer(Class<?> implementation, CodecRegistry codecs) {
    RPCXServer annotation = implementation.getAnnotation(RPCXServer.class);
    if (annotation == null) {
      throw new IllegalArgumentException(
          implementation.getName() + " is not annotated @RPCXServer; annotate it or register it"
              + " under an explicit service name");
    }
    return forServer(annotation.name(), implementation, codecs);
  }

  /** The model of a service implementation class published as {@code service}. */
  public static ServiceModel forServer(
      String service, Class<?> implementation, CodecRegistry codecs) {
    return forServer(service, implementation, List.of(), codecs);
  }

  /**
   * The model of a service implementation class published as {@code service} with the methods of
   * {@code serviceInterfaces} only, or of every interface it implements if that list is empty.
   */
  public static ServiceModel forServer(
      String service,
      Class<?> implementation,
      List<Class<?>> serviceInterfaces,
      CodecRegistry codecs) {
    String name = service == null ? "" : service.strip();
    if (name.isEmpty()) {
      throw new IllegalArgumentException(
          "the service name of " + implementation.getName() + " is empty");
    }
    Names.checkService(name, implementation.getName());
    if (implementation.isInterface() || Modifier.isAbstract(implementation.getModifiers())) {
      throw new IllegalArgumentException(
          implementation.getName() + " is published as service '" + name
              + "' but is not a concrete class");
    }
    Set<Class<?>> interfaces =
        serviceInterfaces.isEmpty()
            ? serviceInterfaces(implementation)
            : checkedInterfaces(name, implementation, serviceInterfaces);
    if (interfaces.isEmpty()) {
      throw new IllegalArgumentException(
          implementation.getName() + " is published as service '" + name
              + "' but implements no service interface: RPCX publishes the methods of the"
              + " interfaces a service class implements");
    }
    Map<String, Method> bySignature = new LinkedHashMap<>();
    for (Class<?> serviceInterface : interfaces) {
      for (Method method : remoteMethods(serviceInterface)) {
        bySignature.putIfAbsent(signature(method), method);
      }
    }
    Map<Method, String> implementationNames = new HashMap<>();
    for (Method method : bySignature.values()) {
      Method implementing;
      try {
        implementing = implementation.getMethod(method.getName(), method.getParameterTypes());
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException("a concrete class lacks an interface method: " + method, e);
      }
      io.rpcx.annotation.Method onImplementation =
          implementing.getAnnotation(io.rpcx.annotation.Method.class);
      if (onImplementation != null && !onImplementation.value().isEmpty()) {
        io.rpcx.annotation.Method onInterface =
            method.getAnnotation(io.rpcx.annotation.Method.class);
        if (onInterface != null
            && !onInterface.value().isEmpty()
            && !onInterface.value().equals(onImplementation.value())) {
          throw new IllegalArgumentException(
              "conflicting published names for " + describe(method) + ": @Method(\""
                  + onInterface.value() + "\") on the interface, @Method(\""
                  + onImplementation.value() + "\") on " + implementation.getName());
        }
        implementationNames.put(method, onImplementation.value());
      }
    }
    return build(
        name, implementation, new ArrayList<>(bySignature.values()), implementationNames, 0, codecs);
  }

  private static ServiceModel build(
      String service,
      Class<?> type,
      List<Method> methods,
      Map<Method, String> nameOverrides,
      long serviceTimeoutMillis,
      CodecRegistry codecs) {
    Map<String, MethodModel> byName = new LinkedHashMap<>();
    Map<Method, MethodModel> byJava = new HashMap<>();
    for (Method method : methods) {
      MethodModel model =
          method(
              service,
              method,
              nameOverrides.get(method),
              serviceTimeoutMillis,
              type.isAnnotationPresent(Idempotent.class),
              type.isAnnotationPresent(OwnDeadline.class),
              codecs);
      MethodModel previous = byName.putIfAbsent(model.descriptor().method(), model);
      if (previous != null) {
        throw new IllegalArgumentException(
            "duplicate published method name '" + model.descriptor().method() + "' in service '"
                + service + "' (" + type.getName() + "): "
                + describe(previous.descriptor().javaMethod()) + " and "
                + describe(method) + "; give one of them another name with @Method");
      }
      byJava.put(method, model);
    }
    return new ServiceModel(service, type, byName, byJava);
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // arrays of codecs of generic types
  private static MethodModel method(
      String service,
      Method method,
      String nameOverride,
      long serviceTimeoutMillis,
      boolean serviceIdempotent,
      boolean serviceOwnDeadline,
      CodecRegistry codecs) {
    io.rpcx.annotation.Method annotation = method.getAnnotation(io.rpcx.annotation.Method.class);
    String name = method.getName();
    long timeoutMillis = serviceTimeoutMillis;
    if (annotation != null) {
      if (!annotation.value().isEmpty()) {
        name = annotation.value().strip();
        if (name.isEmpty()) {
          throw new IllegalArgumentException("@Method on " + describe(method) + " has a blank name");
        }
      }
      if (annotation.timeoutMillis() < 0) {
        throw new IllegalArgumentException(
            "@Method on " + describe(method) + " has timeoutMillis " + annotation.timeoutMillis()
                + " (expected: >= 0)");
      }
      if (annotation.timeoutMillis() > 0) {
        timeoutMillis = annotation.timeoutMillis();
      }
    }
    if (nameOverride != null) {
      name = nameOverride;
    }
    Names.checkMethod(name, describe(method));
    if (method.getTypeParameters().length > 0) {
      throw new IllegalArgumentException(
          describe(method) + " is generic: remote methods need concrete parameter and result"
              + " types");
    }
    Type[] parameterTypes = method.getGenericParameterTypes();
    java.lang.reflect.Parameter[] parameters = method.getParameters();
    ValueCodec<Object>[] parameterCodecs = new ValueCodec[parameterTypes.length];
    String[] parameterNames = new String[parameterTypes.length];
    int streamParameter = -1;
    for (int i = 0; i < parameterTypes.length; i++) {
      parameterNames[i] = parameters[i].getName();
      String where = "parameter " + i + " (" + parameterNames[i] + ") of " + describe(method);
      if (parameters[i].getType() == Flow.Publisher.class) {
        if (streamParameter >= 0) {
          throw new IllegalArgumentException(
              where + " is a second Flow.Publisher (parameter " + streamParameter + " ("
                  + parameterNames[streamParameter] + ") is one): a method takes at most one"
                  + " stream argument");
        }
        streamParameter = i;
        parameterCodecs[i] = streamCodec(parameterTypes[i], where, codecs);
        continue;
      }
      try {
        parameterCodecs[i] = (ValueCodec<Object>) codecs.codecFor(parameterTypes[i]);
      } catch (UnsupportedTypeException e) {
        throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
      }
    }
    Type resultType = method.getGenericReturnType();
    Class<?> rawResult = method.getReturnType();
    boolean async = rawResult == CompletableFuture.class || rawResult == CompletionStage.class;
    boolean stream = rawResult == Flow.Publisher.class || rawResult == Stream.class;
    if (stream) {
      if (!(resultType instanceof ParameterizedType)) {
        throw new IllegalArgumentException(
            describe(method) + " returns a raw " + rawResult.getSimpleName()
                + ": declare its element type, e.g. " + rawResult.getSimpleName() + "<String>");
      }
      resultType = ((ParameterizedType) resultType).getActualTypeArguments()[0];
      if (resultType == Void.class) {
        throw new IllegalArgumentException(
            describe(method) + " returns a stream of Void: a stream's elements carry values");
      }
    } else if (async) {
      if (!(resultType instanceof ParameterizedType)) {
        throw new IllegalArgumentException(
            describe(method) + " returns a raw " + rawResult.getSimpleName()
                + ": declare its value type, e.g. CompletableFuture<String>");
      }
      resultType = ((ParameterizedType) resultType).getActualTypeArguments()[0];
    } else if (java.util.concurrent.Future.class.isAssignableFrom(rawResult)) {
      throw new IllegalArgumentException(
          describe(method) + " returns " + rawResult.getName()
              + ": asynchronous methods return CompletableFuture or CompletionStage");
    }
    if (stream || streamParameter >= 0) {
      // A stream may run for hours: only its own @Method(timeoutMillis) gives it a deadline.
      timeoutMillis = annotation != null ? annotation.timeoutMillis() : 0;
    }
    ValueCodec<Object> resultCodec = null;
    if (resultType != void.class && resultType != Void.class) {
      try {
        resultCodec = (ValueCodec<Object>) codecs.codecFor(resultType);
      } catch (UnsupportedTypeException e) {
        throw new IllegalArgumentException(
            "result of " + describe(method) + ": " + e.getMessage(), e);
      }
    }
    List<Class<?>> checked =
        Arrays.stream(method.getExceptionTypes())
            .filter(
                exception ->
                    !RuntimeException.class.isAssignableFrom(exception)
                        && !Error.class.isAssignableFrom(exception))
            .collect(Collectors.toList());
    DeclaredExceptions declared;
    try {
      declared = DeclaredExceptions.of(checked, codecs);
    } catch (UnsupportedTypeException e) {
      throw new IllegalArgumentException(
          describe(method) + " declares an exception RPCX cannot rebuild on the calling side ("
              + "a declared exception travels whole, its fields with it): " + e.getMessage(),
          e);
    }
    return new MethodModel(
        MethodDescriptor.of(
            service,
            name,
            method,
            serviceIdempotent || method.isAnnotationPresent(Idempotent.class)),
        parameterCodecs,
        parameterNames,
        resultCodec,
        streamParameter,
        timeoutMillis,
        declared,
        !serviceOwnDeadline && !method.isAnnotationPresent(OwnDeadline.class),
        routingKey(method, parameters));
  }

  /** The codec of a {@code Flow.Publisher<T>} parameter: {@code stream<T>}. */
  @SuppressWarnings("unchecked")
  private static ValueCodec<Object> streamCodec(Type type, String where, CodecRegistry codecs) {
    if (!(type instanceof ParameterizedType)) {
      throw new IllegalArgumentException(
          where + " is a raw Flow.Publisher: declare its element type, e.g."
              + " Flow.Publisher<String>");
    }
    Type element = ((ParameterizedType) type).getActualTypeArguments()[0];
    if (element instanceof java.lang.reflect.WildcardType) {
      throw new IllegalArgumentException(
          where + " is a Flow.Publisher<" + element.getTypeName() + ">: declare its element type"
              + " exactly, e.g. Flow.Publisher<String>");
    }
    if (element == Void.class) {
      throw new IllegalArgumentException(
          where + " is a stream of Void: a stream's elements carry values");
    }
    try {
      return new StreamCodec((ValueCodec<Object>) codecs.codecFor(element));
    } catch (UnsupportedTypeException e) {
      throw new IllegalArgumentException(
          where + ": its stream elements cannot be carried: " + e.getMessage(), e);
    }
  }

  /** Types whose hash is the same in every JVM: the values a {@link RoutingKey} may have. */
  private static boolean stableHashType(Class<?> type) {
    return type == String.class
        || type.isPrimitive()
        || type == Boolean.class
        || type == Character.class
        || Number.class.isAssignableFrom(type) && type.getName().startsWith("java.lang.")
        || type.isEnum()
        || type == java.util.UUID.class;
  }

  /** The index of the parameter annotated {@link RoutingKey}, or -1. */
  private static int routingKey(Method method, java.lang.reflect.Parameter[] parameters) {
    int index = -1;
    for (int i = 0; i < parameters.length; i++) {
      if (!parameters[i].isAnnotationPresent(RoutingKey.class)) {
        continue;
      }
      if (index >= 0) {
        throw new IllegalArgumentException(
            describe(method) + " has @RoutingKey on parameters " + index + " and " + i
                + " (expected: at most one)");
      }
      if (!stableHashType(parameters[i].getType())) {
        throw new IllegalArgumentException(
            "@RoutingKey on parameter " + i + " (" + parameters[i].getName() + ") of "
                + describe(method) + ": " + parameters[i].getType().getName()
                + " has no hash that is the same in every JVM (expected: String, a primitive or"
                + " its box, an enum, or UUID)");
      }
      index = i;
    }
    return index;
  }

  /**
   * The methods of an interface that are remote: public, abstract, not static, not default, and not
   * a redeclared {@code Object} method; in a stable order.
   */
  static List<Method> remoteMethods(Class<?> type) {
    List<Method> methods = new ArrayList<>();
    for (Method method : type.getMethods()) {
      if (Modifier.isStatic(method.getModifiers())
          || method.isDefault()
          || method.getDeclaringClass() == Object.class
          || isObjectMethod(method)) {
        continue;
      }
      methods.add(method);
    }
    methods.sort(Comparator.comparing(ServiceModels::signature));
    return methods;
  }

  private static boolean isObjectMethod(Method method) {
    try {
      Object.class.getMethod(method.getName(), method.getParameterTypes());
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /** {@code interfaces}, checked to be non-JDK interfaces that {@code implementation} implements. */
  private static Set<Class<?>> checkedInterfaces(
      String service, Class<?> implementation, List<Class<?>> interfaces) {
    Set<Class<?>> checked = new LinkedHashSet<>();
    for (Class<?> candidate : interfaces) {
      if (!candidate.isInterface()) {
        throw new IllegalArgumentException(
            candidate.getName() + " is given as a service interface of '" + service
                + "' but is not an interface");
      }
      if (isJdk(candidate)) {
        throw new IllegalArgumentException(
            candidate.getName() + " is given as a service interface of '" + service
                + "' but is an interface of the JDK");
      }
      if (!candidate.isAssignableFrom(implementation)) {
        throw new IllegalArgumentException(
            implementation.getName() + " is published as service '" + service + "' with the"
                + " methods of " + candidate.getName() + " but does not implement it");
      }
      checked.add(candidate);
    }
    return checked;
  }

  private static boolean isJdk(Class<?> type) {
    String name = type.getName();
    return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.");
  }

  /** Interfaces implemented by the class or its superclasses, except those of the JDK. */
  private static Set<Class<?>> serviceInterfaces(Class<?> implementation) {
    Set<Class<?>> interfaces = new LinkedHashSet<>();
    for (Class<?> c = implementation; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Class<?> candidate : c.getInterfaces()) {
        if (!isJdk(candidate)) {
          interfaces.add(candidate);
        }
      }
    }
    return interfaces;
  }

  private static String signature(Method method) {
    return method.getName()
        + Arrays.stream(method.getParameterTypes())
            .map(Class::getName)
            .collect(Collectors.joining(",", "(", ")"));
  }

  /** {@code com.example.OrderService.load(long, String)}, for messages. */
  public static String describe(Method method) {
    return method.getDeclaringClass().getName()
        + "."
        + method.getName()
        + Arrays.stream(method.getParameterTypes())
            .map(Class::getSimpleName)
            .collect(Collectors.joining(", ", "(", ")"));
  }
}
