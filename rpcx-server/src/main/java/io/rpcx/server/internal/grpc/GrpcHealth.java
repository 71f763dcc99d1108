package io.rpcx.server.internal.grpc;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntConsumer;

/**
 * The state {@code grpc.health.v1.Health} reports (docs/GRPC.md, "Health"): {@code SERVING} while
 * the server takes calls, {@code NOT_SERVING} from the moment a graceful stop begins; for the
 * whole server (the empty service name) and for each published service, by its gRPC name or its
 * RPCX name. {@code Watch} streams are told of every change. Thread-safe.
 */
public final class GrpcHealth {
  public static final String SERVICE = "grpc.health.v1.Health";
  public static final String CHECK = "/grpc.health.v1.Health/Check";
  public static final String WATCH = "/grpc.health.v1.Health/Watch";

  /** HealthCheckResponse.ServingStatus. */
  public static final int SERVING = 1;

  public static final int NOT_SERVING = 2;
  public static final int SERVICE_UNKNOWN = 3;

  private final Set<String> services;
  private final List<Runnable> watchers = new CopyOnWriteArrayList<>();
  private volatile boolean serving = true;

  /** The health of a server publishing {@code services} (gRPC and RPCX names alike). */
  public GrpcHealth(Set<String> services) {
    this.services = Set.copyOf(services);
  }

  /** The status of {@code service} ({@code ""}: the server), or {@code SERVICE_UNKNOWN}. */
  public int status(String service) {
    if (!service.isEmpty() && !services.contains(service)) {
      return SERVICE_UNKNOWN;
    }
    return serving ? SERVING : NOT_SERVING;
  }

  /** A graceful stop began: every service is {@code NOT_SERVING}, and every watcher is told. */
  public void stopServing() {
    serving = false;
    for (Runnable watcher : watchers) {
      watcher.run();
    }
  }

  /** Runs {@code changed} on every change from now on, until the returned handle is run. */
  public Runnable watch(Runnable changed) {
    watchers.add(changed);
    return () -> watchers.remove(changed);
  }

  /** The service named by a {@code HealthCheckRequest}: field 1, {@code ""} when absent. */
  public static String requestedService(CodedInputStream request) throws IOException {
    String service = "";
    while (true) {
      int tag = request.readTag();
      if (tag == 0) {
        return service;
      }
      if (tag == ((1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        service = request.readStringRequireUtf8();
      } else {
        request.skipField(tag);
      }
    }
  }

  /** A {@code HealthCheckResponse} with {@code status}: field 1, an enum varint. */
  public static byte[] response(int status) {
    return new byte[] {0x08, (byte) status};
  }

  /** Runs {@code each} with the status of {@code service} now and after every change. */
  public Runnable watch(String service, IntConsumer each) {
    each.accept(status(service));
    return watch(() -> each.accept(status(service)));
  }
}
