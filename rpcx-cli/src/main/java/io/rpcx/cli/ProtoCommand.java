package io.rpcx.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rpcx proto HOST:PORT [SERVICE]}: the {@code .proto} files of the wire format, written under
 * a directory ({@code --out}), printed one at a time ({@code --file}), or all printed one after
 * another for reading.
 */
@Command(
    name = "proto",
    mixinStandardHelpOptions = true,
    description = {
      "The .proto files describing a service's wire format (every service's without SERVICE), for"
          + " clients in other languages: a service's own file, and rpcx/v1/rpcx.proto, the RPCX"
          + " envelope.",
      "--out DIR writes each file under DIR, as protoc finds imports (protoc -I DIR ...);"
          + " --file NAME prints that one file alone; without either, every file is printed, each"
          + " after a '// file: NAME' line (for reading, not for protoc)."
    })
final class ProtoCommand implements Runnable {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The server.")
  String address;

  @Parameters(index = "1", arity = "0..1", paramLabel = "SERVICE", description = "The service.")
  String service;

  @Option(
      names = {"-o", "--out"},
      paramLabel = "DIR",
      description = "Writes every file under DIR (made if missing), and lists them.")
  Path out;

  @Option(
      names = "--file",
      paramLabel = "NAME",
      description = "Prints only the file NAME (such as orders.proto), as it is.")
  String file;

  @Mixin ConnectionOptions connection;

  @Override
  public void run() {
    if (out != null && file != null) {
      throw UserError.usage("give either --out or --file, not both");
    }
    PrintWriter stdout = spec.commandLine().getOut();
    Map<String, String> files;
    try (Remote remote = Remote.connect(address, connection, 1)) {
      files = files(remote);
    }
    if (file != null) {
      String text = files.get(file);
      if (text == null) {
        throw UserError.usage(
            "--file: no file '" + file + "' (the files: " + String.join(", ", files.keySet()) + ")");
      }
      stdout.print(ending(text));
    } else if (out != null) {
      for (Map.Entry<String, String> each : files.entrySet()) {
        stdout.println(write(each.getKey(), each.getValue()));
      }
    } else {
      print(stdout, files);
    }
  }

  /** The files of the service, or of every service, by file name. */
  private Map<String, String> files(Remote remote) {
    List<String> services = service != null ? List.of(service) : new ArrayList<>(remote.services());
    Map<String, String> files = new LinkedHashMap<>();
    for (String name : services) {
      for (Map.Entry<String, String> each : remote.protoFiles(name).entrySet()) {
        String known = files.putIfAbsent(each.getKey(), each.getValue());
        if (known != null && !known.equals(each.getValue())) {
          // Two services whose names make one file name: both, each under its service.
          if (out != null || file != null) {
            throw UserError.usage("two services make a file " + each.getKey() + " each: give"
                + " SERVICE to get the files of one");
          }
          files.put(each.getKey() + " (service " + name + ")", each.getValue());
        }
      }
    }
    return files;
  }

  /** Writes {@code text} as {@code name} under {@link #out}; returns the path written. */
  private Path write(String name, String text) {
    Path target = out.resolve(name).normalize();
    // The names come from the server: none may write outside the directory.
    if (Path.of(name).isAbsolute() || !target.startsWith(out.normalize())) {
      throw new UserError(ExitCodes.SOFTWARE,
          "the server named a .proto file '" + name + "', outside " + out + ": not written");
    }
    try {
      Files.createDirectories(target.getParent());
      Files.writeString(target, ending(text), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw UserError.usage("--out: cannot write " + target + ": " + e.getMessage());
    }
    return target;
  }

  /** Every file, each after its name, for a person to read. */
  private void print(PrintWriter stdout, Map<String, String> files) {
    boolean first = true;
    for (Map.Entry<String, String> each : files.entrySet()) {
      if (!first) {
        stdout.println();
      }
      first = false;
      stdout.println("// file: " + each.getKey());
      stdout.print(ending(each.getValue()));
    }
    if (files.size() > 1) {
      spec.commandLine().getErr().println(
          files.size() + " files printed one after another; for protoc, write them with --out DIR"
              + " (or one at a time with --file NAME)");
    }
  }

  private static String ending(String text) {
    return text.endsWith("\n") ? text : text + "\n";
  }
}
