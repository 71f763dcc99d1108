package io.rpcx.server.internal.config;

import java.util.List;
import java.util.Objects;

/**
 * One implementation given to a server's builder: the object calls go to, the class its service
 * model is read from (its own class, or the class behind a proxy), the name it is published as
 * ({@code null}: its {@code @RPCXServer} name), and the interfaces whose methods it publishes
 * (empty: every non-JDK interface the class implements).
 */
public record ServiceBinding(
    String name, Object implementation, Class<?> describedBy, List<Class<?>> interfaces) {

  /** Checks and copies the parts. */
  public ServiceBinding {
    Objects.requireNonNull(implementation, "implementation");
    Objects.requireNonNull(describedBy, "implementationClass");
    interfaces = List.copyOf(interfaces);
  }
}
