package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;

import io.rpcx.examples.server.ExampleServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gRPC client in a second language, made from the export alone (docs/GRPC.md, "Calling RPCX
 * from Python"): the example server's {@code .proto} files as {@code rpcx proto} gives them,
 * compiled as they are by Debian's protoc with grpc's Python plugin, and {@code
 * src/test/python/example_client.py} calling every call shape, the health service, and a method
 * the way grpcurl does (reflection and JSON), through Python's grpcio. Without those Debian
 * packages the test skips, naming them; {@code .ci/run} installs them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PythonClientTest {
  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final Path PROTOC = Path.of("/usr/bin/protoc");
  private static final Path GRPC_PYTHON_PLUGIN = Path.of("/usr/bin/grpc_python_plugin");
  private static final Path WELL_KNOWN_TYPES = Path.of("/usr/include/google/protobuf");
  private static final Path SCRIPTS = Path.of("src/test/python");
  private static final long PROCESS_TIMEOUT_SECONDS = 60;

  /** A file of {@code rpcx proto}'s output starts with this line. */
  private static final Pattern FILE_LINE = Pattern.compile("^// file: (\\S+)\\n", Pattern.MULTILINE);

  @TempDir static Path directory;

  @Test
  void aPythonClientGeneratedFromTheExportCallsEveryShape() throws Exception {
    skipWithoutThePackages();
    try (ExampleServer example = ExampleServer.start("--port", "0")) {
      callWithPython("127.0.0.1:" + example.server().port());
    }
  }

  private static void callWithPython(String address) throws IOException, InterruptedException {
    Path protos = directory.resolve("protos");
    List<Path> exported = export(address, protos);
    assertEquals(
        List.of("chat.proto", "echo.proto", "files.proto", "infos.proto", "messages.proto",
            "orders.proto", "rpcx/reflection/v1/Reflection.proto", "rpcx/v1/rpcx.proto"),
        exported.stream().map(file -> protos.relativize(file).toString()).sorted().toList());

    // protoc takes the files as they are: no error, and not a warning either.
    Path generated = Files.createDirectories(directory.resolve("gen"));
    List<String> protoc = new ArrayList<>(List.of(PROTOC.toString(),
        "-I", protos.toString(), "-I", SCRIPTS.toString(),
        "--python_out=" + generated, "--grpc_python_out=" + generated,
        "--plugin=protoc-gen-grpc_python=" + GRPC_PYTHON_PLUGIN));
    exported.forEach(file -> protoc.add(file.toString()));
    protoc.add(SCRIPTS.resolve("health.proto").toString());
    protoc.add(SCRIPTS.resolve("reflection.proto").toString());
    assertEquals(new Finished(0, ""), run(protoc, Map.of()));

    Finished client = run(
        List.of(PYTHON.toString(), SCRIPTS.resolve("example_client.py").toString(), address),
        Map.of("PYTHONPATH", generated.toString()));
    assertEquals(0, client.exit(), client::output);
    assertLinesMatch(
        List.of(
            "ok   grpc.health.v1.Health/Check('') is SERVING",
            "ok   grpc.health.v1.Health/Check('orders.Orders') is SERVING",
            "ok   grpc.health.v1.Health/Check('orders') is SERVING",
            "ok   grpc.health.v1.Health/Check('no.such.Service') fails with NOT_FOUND",
            "ok   orders.Orders/findOrder(0) returns the sample order 0",
            "ok   orders.Orders/findOrder() without orderId fails with INVALID_ARGUMENT",
            "ok   orders.Orders/loadOrder(order 0) returns the order sent",
            "ok   orders.Orders/loadOrder keeps the epoch and the empty tags, and no attributes",
            "ok   orders.Orders/findOrder(-1) fails with UNKNOWN",
            "ok   orders.Orders/findOrder(-1) says why",
            "ok   orders.Orders/findOrder(-1) names the exception in the rpcx-exception-class"
                + " trailer",
            "ok   orders.Orders/streamOrders(3) streams the sample orders 0, 1, 2",
            "ok   orders.Orders/streamOrders(0) ends at once, with OK",
            "ok   files.Files/upload('notes.txt', 3 chunks, one empty) counts every chunk and byte",
            "ok   chat.Chat/chat stamps 'hello' with the server's time",
            "ok   chat.Chat/chat stamps '' with the server's time",
            "ok   chat.Chat/chat stamps 'bye' with the server's time",
            "ok   chat.Chat/chat answers each text in turn",
            "ok   chat.Chat/chat numbers the messages in order",
            "ok   chat.Chat/chat ends when the texts end",
            "ok   grpc.reflection.v1.ServerReflection lists the services",
            "ok   grpc.reflection.v1.ServerReflection sends orders.Orders's file and what it imports",
            "ok   orders.Orders/findOrder({\"orderId\": 42}) through the reflected files, in JSON",
            "all checks passed"),
        client.output().lines().toList(),
        client::output);
  }

  /**
   * Writes the files {@code rpcx proto} prints under {@code protos}, each under the name its {@code
   * // file:} line gives, with its text unchanged; returns them.
   */
  private static List<Path> export(String address, Path protos) throws IOException {
    Cli.Run run = Cli.run("proto", address);
    assertEquals(0, run.exit(), run::toString);
    Matcher line = FILE_LINE.matcher(run.out());
    List<Path> files = new ArrayList<>();
    boolean found = line.find();
    assertTrue(found, run::toString);
    while (found) {
      Path file = protos.resolve(line.group(1));
      int start = line.end();
      found = line.find();
      // Files are printed one after another, an empty line between two.
      String text = found ? run.out().substring(start, line.start() - 1) : run.out().substring(start);
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
      files.add(file);
    }
    return files;
  }

  private record Finished(int exit, String output) {}

  /** Runs {@code command} to its end (within the timeout), stdout and stderr together. */
  private static Finished run(List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    Path output = Files.createTempFile(directory, "process", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    // Debian's Python with its own packages: none of the caller's PYTHONPATH, PYTHONHOME...
    builder.environment().keySet().removeIf(name -> name.startsWith("PYTHON"));
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(PROCESS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(command + " did not end within " + PROCESS_TIMEOUT_SECONDS
          + " s; its output:\n" + Files.readString(output));
    }
    return new Finished(process.exitValue(), Files.readString(output));
  }

  private static void skipWithoutThePackages() throws IOException, InterruptedException {
    String packages = "python3-grpcio python3-protobuf protobuf-compiler libprotobuf-dev"
        + " protobuf-compiler-grpc";
    List<String> missing = Stream.of(PYTHON, PROTOC, GRPC_PYTHON_PLUGIN,
            WELL_KNOWN_TYPES.resolve("timestamp.proto"))
        .filter(path -> !Files.exists(path))
        .map(Path::toString)
        .toList();
    if (missing.isEmpty()) {
      Finished imports = run(
          List.of(PYTHON.toString(), "-c", "import grpc, google.protobuf"), Map.of());
      if (imports.exit() != 0) {
        missing = List.of(PYTHON + "'s grpc and google.protobuf modules");
      }
    }
    if (!missing.isEmpty()) {
      abort("needs " + String.join(", ", missing) + ": install the Debian packages " + packages
          + " (apt-get install " + packages + ")");
    }
  }
}
