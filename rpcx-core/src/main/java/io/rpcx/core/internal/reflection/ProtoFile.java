package io.rpcx.core.internal.reflection;

import java.util.List;

/**
 * A generated {@code .proto} file: its name, package, header comment, imports, messages and gRPC
 * services.
 */
record ProtoFile(
    String name,
    String packageName,
    String comment,
    List<String> imports,
    List<ProtoMessage> messages,
    List<ProtoService> services) {
  ProtoFile {
    imports = List.copyOf(imports);
    messages = List.copyOf(messages);
    services = List.copyOf(services);
  }
}
