package io.rpcx.core.internal.reflection;

import java.util.List;

/**
 * A gRPC {@code service} of a generated {@code .proto} file: one {@code rpc} per method, named as
 * gRPC paths name it ({@code /package.Service/rpc}); each remembers the RPCX method it calls.
 */
record ProtoService(String name, String comment, List<Rpc> rpcs) {
  ProtoService {
    rpcs = List.copyOf(rpcs);
  }

  /**
   * One method: its rpc name (the RPCX {@code method} made a protobuf identifier), its request and
   * reply messages (short names, in the file's package) and which ways it streams.
   */
  record Rpc(
      String name,
      String method,
      String request,
      String reply,
      boolean clientStreaming,
      boolean serverStreaming,
      String comment) {}
}
