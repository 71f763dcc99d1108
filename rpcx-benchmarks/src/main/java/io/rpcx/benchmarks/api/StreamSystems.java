package io.rpcx.benchmarks.api;

import io.rpcx.benchmarks.grpc.GrpcStreamSystem;
import io.rpcx.benchmarks.netty.NettyStreamSystem;
import io.rpcx.benchmarks.rpcx.RpcxStreamSystem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of systems in the streaming benchmark, by name: {@code rpcx} (a {@code
 * Flow.Publisher} method) and {@code rpcx-direct} (its server on the event loop); {@code grpc},
 * {@code grpc-ready}, {@code grpc-batch} and {@code grpc-ready-batch} (a {@code stream} rpc, its
 * server writing in a plain loop or while ready, its client leaving flow control to gRPC or
 * requesting in batches: {@link GrpcStreamSystem}); and {@code netty}, the floor.
 */
public final class StreamSystems {
  private static final Map<String, StreamSystem> SYSTEMS = new LinkedHashMap<>();

  static {
    register(RpcxStreamSystem.withWorkerPool());
    register(RpcxStreamSystem.onEventLoop());
    register(GrpcStreamSystem.automatic(false));
    register(GrpcStreamSystem.automatic(true));
    register(GrpcStreamSystem.inBatches(false));
    register(GrpcStreamSystem.inBatches(true));
    register(new NettyStreamSystem());
  }

  private StreamSystems() {}

  private static void register(StreamSystem system) {
    SYSTEMS.put(system.name(), system);
  }

  /** Names of the registered systems, in registration order. */
  public static List<String> names() {
    return Collections.unmodifiableList(new ArrayList<>(SYSTEMS.keySet()));
  }

  /** The system called {@code name}; the error lists the registered names. */
  public static StreamSystem get(String name) {
    StreamSystem system = SYSTEMS.get(name);
    if (system == null) {
      throw new IllegalArgumentException(
          "unknown stream system '" + name + "'; registered: "
              + String.join(", ", SYSTEMS.keySet()));
    }
    return system;
  }
}
