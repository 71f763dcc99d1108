package io.rpcx.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rpcx proto HOST:PORT [SERVICE]}: the {@code .proto} files of the wire format. */
@Command(
    name = "proto",
    mixinStandardHelpOptions = true,
    description = "Prints the .proto files describing a service's wire format (every service's"
        + " without SERVICE), for clients in other languages. Each file starts with a"
        + " '// file: NAME' line.")
final class ProtoCommand implements Runnable {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The server.")
  String address;

  @Parameters(index = "1", arity = "0..1", paramLabel = "SERVICE", description = "The service.")
  String service;

  @Mixin ConnectionOptions connection;

  @Override
  public void run() {
    PrintWriter out = spec.commandLine().getOut();
    try (Remote remote = Remote.connect(address, connection, 1)) {
      List<String> services = service != null ? List.of(service) : new ArrayList<>(remote.services());
      Map<String, String> files = new LinkedHashMap<>();
      for (String name : services) {
        for (Map.Entry<String, String> file : remote.protoFiles(name).entrySet()) {
          String known = files.putIfAbsent(file.getKey(), file.getValue());
          if (known != null && !known.equals(file.getValue())) {
            // Two services whose names make one file name: print both, each under its service.
            files.put(file.getKey() + " (service " + name + ")", file.getValue());
          }
        }
      }
      boolean first = true;
      for (Map.Entry<String, String> file : files.entrySet()) {
        if (!first) {
          out.println();
        }
        first = false;
        out.println("// file: " + file.getKey());
        out.print(file.getValue());
        if (!file.getValue().endsWith("\n")) {
          out.println();
        }
      }
    }
  }
}
