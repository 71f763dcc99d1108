package io.rpcx.server.internal.grpc;

import com.google.protobuf.Descriptors;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.reflection.ServiceDescriptions;
import io.rpcx.core.internal.reflection.ServiceExport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the gRPC side of a server answers (docs/GRPC.md): each published service as the gRPC
 * service its exported schema defines, a path {@code /package.Service/rpc} per method, found
 * without building a string per call; the health service and reflection over the same schemas.
 * Built once when the server starts; immutable and thread-safe.
 */
public final class GrpcRoutes {
  private static final Logger logger = LoggerFactory.getLogger(GrpcRoutes.class);

  /** An RPCX method by its published names. */
  public record Route(String service, String method) {}

  private final Map<String, Route> byPath;
  private final GrpcHealth health;
  private final GrpcReflection reflection;

  private GrpcRoutes(Map<String, Route> byPath, GrpcHealth health, GrpcReflection reflection) {
    this.byPath = Map.copyOf(byPath);
    this.health = health;
    this.reflection = reflection;
  }

  /**
   * The routes of {@code models}; {@code health} and {@code reflection} say whether those
   * standard services are answered. A service whose schema cannot be exported is left out of
   * gRPC, with a warning naming why (RPCX's own protocol still serves it).
   */
  public static GrpcRoutes of(List<ServiceModel> models, boolean health, boolean reflection) {
    Map<String, Route> byPath = new HashMap<>();
    List<Descriptors.FileDescriptor> files = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (ServiceModel model : models) {
      ServiceExport export;
      try {
        export = ServiceExport.of(ServiceDescriptions.describe(model));
      } catch (RuntimeException e) {
        logger.warn("Service '{}' is not served over gRPC: {}", model.name(), e.getMessage());
        continue;
      }
      files.add(export.fileDescriptor());
      names.add(model.name());
      names.add(export.grpcService());
      for (Map.Entry<String, String> rpc : export.grpcMethods().entrySet()) {
        byPath.put(
            "/" + export.grpcService() + "/" + rpc.getKey(),
            new Route(model.name(), rpc.getValue()));
      }
    }
    return new GrpcRoutes(
        byPath,
        health ? new GrpcHealth(names) : null,
        reflection ? new GrpcReflection(files, health) : null);
  }

  /** The RPCX method at {@code path}, or {@code null}. */
  public Route route(CharSequence path) {
    return byPath.get(path.toString());
  }

  /** The health service's state, or {@code null} when it is not answered. */
  public GrpcHealth health() {
    return health;
  }

  /** Reflection, or {@code null} when it is not answered. */
  public GrpcReflection reflection() {
    return reflection;
  }
}
