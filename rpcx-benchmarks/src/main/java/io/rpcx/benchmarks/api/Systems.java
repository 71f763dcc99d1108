package io.rpcx.benchmarks.api;

import io.rpcx.benchmarks.dubbo.DubboSystem;
import io.rpcx.benchmarks.feign.FeignSystem;
import io.rpcx.benchmarks.grpc.GrpcExportSystem;
import io.rpcx.benchmarks.grpc.GrpcSystem;
import io.rpcx.benchmarks.http.HttpJsonSystem;
import io.rpcx.benchmarks.netty.NettySystem;
import io.rpcx.benchmarks.rpcx.Observability;
import io.rpcx.benchmarks.rpcx.RpcxSystem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of systems under test, by name. The JMH benchmarks and the stress tool look systems
 * up here, so a new system is one {@code register} line.
 *
 * <pre>{@code
 * try (Deployment d = Systems.start("dubbo")) { ... }
 * }</pre>
 */
public final class Systems {
  /** Name of the RPCX system. */
  public static final String RPCX = "rpcx";

  private static final Map<String, BenchmarkSystem> SYSTEMS = new LinkedHashMap<>();

  static {
    register(GrpcSystem.withPojos());
    register(GrpcSystem.withNativeMessages());
    register(GrpcExportSystem.onGrpcJava());
    register(GrpcExportSystem.onRpcx());
    register(new DubboSystem());
    register(new FeignSystem());
    register(new HttpJsonSystem());
    register(NettySystem.batching());
    register(NettySystem.flushingPerCall());
    register(RpcxSystem.withWorkerPool());
    register(RpcxSystem.onEventLoop());
    register(RpcxSystem.nonBlocking());
    register(RpcxSystem.onVirtualThreads());
    register(RpcxSystem.observed(Observability.METERS));
    register(RpcxSystem.observed(Observability.METRICS));
    register(RpcxSystem.observed(Observability.METRICS_GENERIC));
    register(RpcxSystem.observed(Observability.TRACING));
    register(RpcxSystem.observed(Observability.TRACING_UNSAMPLED));
  }

  private Systems() {}

  private static void register(BenchmarkSystem system) {
    SYSTEMS.put(system.name(), system);
  }

  /** Names of the registered systems, in registration order. */
  public static List<String> names() {
    return Collections.unmodifiableList(new ArrayList<>(SYSTEMS.keySet()));
  }

  /** Whether a system of that name is registered. */
  public static boolean isRegistered(String name) {
    return SYSTEMS.containsKey(name);
  }

  /** The system called {@code name}; the error lists the registered names. */
  public static BenchmarkSystem get(String name) {
    BenchmarkSystem system = SYSTEMS.get(name);
    if (system == null) {
      throw new IllegalArgumentException(
          "unknown system '" + name + "'; registered: " + String.join(", ", SYSTEMS.keySet()));
    }
    return system;
  }

  /** Starts the server and client of system {@code name}. */
  public static Deployment start(String name) throws Exception {
    return Deployment.start(get(name));
  }
}
