package io.rpcx.micrometer;

import io.rpcx.client.ClientCall;
import io.rpcx.core.MethodDescriptor;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@link MethodValues} of every method a client calls or a server publishes, found without
 * joining strings: a client's by its descriptor (one per method of each client interface; a raw
 * call's, which has no Java method, is not kept), a server's by service and method name. A server
 * keeps only published methods, so that names a client makes up cannot grow it; they all share the
 * {@code _OTHER} entry. At most {@link MethodValues#MAX_METHODS} services, and methods per service,
 * are kept. Thread-safe.
 */
final class MethodTable<T> {
  private final ConcurrentMap<MethodDescriptor, MethodValues<T>> clientMethods =
      new ConcurrentHashMap<>();
  private final ConcurrentMap<String, ConcurrentMap<String, MethodValues<T>>> services =
      new ConcurrentHashMap<>();
  private final MethodValues<T> other = new MethodValues<>(RpcxKeys.OTHER);

  /** The entry of the method {@code call} calls. */
  MethodValues<T> of(ClientCall call) {
    MethodDescriptor descriptor = call.method();
    boolean kept = descriptor.javaMethod() != null;
    MethodValues<T> method = kept ? clientMethods.get(descriptor) : null;
    if (method == null) {
      method = new MethodValues<>(descriptor.fullName());
      if (kept && clientMethods.size() < MethodValues.MAX_METHODS) {
        MethodValues<T> raced = clientMethods.putIfAbsent(descriptor, method);
        if (raced != null) {
          method = raced;
        }
      }
    }
    return method;
  }

  /** The entry of a served method, or {@code _OTHER}'s if the server does not publish it. */
  MethodValues<T> of(String service, String name, boolean published) {
    if (!published) {
      return other;
    }
    ConcurrentMap<String, MethodValues<T>> ofService = section(services, service);
    MethodValues<T> method = ofService.get(name);
    if (method == null) {
      method = new MethodValues<>(service + "/" + name);
      if (ofService.size() < MethodValues.MAX_METHODS) {
        MethodValues<T> raced = ofService.putIfAbsent(name, method);
        if (raced != null) {
          method = raced;
        }
      }
    }
    return method;
  }

  /** The methods of {@code service}; a map of its own, not kept, past the bound. */
  private static <K, V> ConcurrentMap<K, V> section(
      ConcurrentMap<String, ConcurrentMap<K, V>> table, String service) {
    ConcurrentMap<K, V> section = table.get(service);
    if (section == null) {
      section = new ConcurrentHashMap<>();
      if (table.size() < MethodValues.MAX_METHODS) {
        ConcurrentMap<K, V> raced = table.putIfAbsent(service, section);
        if (raced != null) {
          section = raced;
        }
      }
    }
    return section;
  }
}
