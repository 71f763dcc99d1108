package io.rpcx.client.internal.proxy;

import io.rpcx.client.internal.call.ClientMethod;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The invocation handler behind a client proxy. Remote methods go to their {@link ClientMethod};
 * {@code equals}, {@code hashCode}, {@code toString} and default methods run locally and never
 * touch the network.
 */
public final class ServiceProxy implements InvocationHandler {
  private static final Object[] NO_ARGUMENTS = new Object[0];

  private final Map<Method, ClientMethod> methods;
  private final Supplier<String> description;

  /** {@code description} is what {@code toString} returns; it may change with the servers. */
  public ServiceProxy(Map<Method, ClientMethod> methods, Supplier<String> description) {
    this.methods = Map.copyOf(methods);
    this.description = description;
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    ClientMethod remote = methods.get(method);
    if (remote != null) {
      return remote.invoke(args == null ? NO_ARGUMENTS : args);
    }
    switch (method.getName()) {
      case "equals":
        if (method.getParameterCount() == 1 && method.getParameterTypes()[0] == Object.class) {
          return proxy == args[0];
        }
        break;
      case "hashCode":
        if (method.getParameterCount() == 0) {
          return System.identityHashCode(proxy);
        }
        break;
      case "toString":
        if (method.getParameterCount() == 0) {
          return description.get();
        }
        break;
      default:
        break;
    }
    if (method.isDefault()) {
      return InvocationHandler.invokeDefault(proxy, method, args);
    }
    throw new IllegalStateException("no remote method behind " + method);
  }
}
