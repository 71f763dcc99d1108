package io.rpcx.core.internal.grpc;

import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.reflection.ServiceDescriptions;
import io.rpcx.core.internal.reflection.ServiceExport;
import java.util.HashMap;
import java.util.Map;

/**
 * Where gRPC calls the methods of one service: {@code /package.Service/rpc}, as the service's
 * exported schema names them (docs/GRPC.md, "Names"), so that a client calls exactly the paths a
 * server generated from that schema serves. Worked out once, on the first call that needs it: a
 * client that never calls a gRPC server never exports anything. Thread-safe.
 */
public final class GrpcPaths {
  private final ServiceModel service;
  private volatile Map<MethodModel, String> paths;

  private GrpcPaths(ServiceModel service) {
    this.service = service;
  }

  /** The paths of the methods of {@code service}, from its export. */
  public static GrpcPaths of(ServiceModel service) {
    return new GrpcPaths(service);
  }

  /**
   * The paths of methods known only by their names (raw calls): the export's names when none of
   * them collide, which is what a service's schema holds unless two of its names clash.
   */
  public static GrpcPaths byName() {
    return new GrpcPaths(null);
  }

  /**
   * The path of {@code method}.
   *
   * @throws IllegalStateException if the service's types cannot be exported as protobuf messages
   *     (it cannot be called over gRPC), naming them
   */
  public String path(MethodModel method) {
    if (service == null) {
      return ServiceExport.grpcPathByName(
          method.descriptor().service(), method.descriptor().method());
    }
    Map<MethodModel, String> known = paths;
    if (known == null) {
      known = export();
    }
    String path = known.get(method);
    if (path == null) {
      throw new IllegalStateException(
          method.displayName() + " is not a method of the exported service " + service.name());
    }
    return path;
  }

  private synchronized Map<MethodModel, String> export() {
    Map<MethodModel, String> known = paths;
    if (known != null) {
      return known;
    }
    ServiceExport export;
    try {
      export = ServiceExport.of(ServiceDescriptions.describe(service));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "service '" + service.name() + "' cannot be called over gRPC: its schema cannot be"
              + " exported: " + e.getMessage(),
          e);
    }
    Map<MethodModel, String> byMethod = new HashMap<>();
    for (Map.Entry<String, String> rpc : export.grpcMethods().entrySet()) {
      MethodModel method = service.method(rpc.getValue());
      if (method != null) {
        byMethod.put(method, "/" + export.grpcService() + "/" + rpc.getKey());
      }
    }
    paths = Map.copyOf(byMethod);
    return paths;
  }
}
