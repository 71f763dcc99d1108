package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;

import io.rpcx.cli.ForeignClients.Finished;
import io.rpcx.examples.server.ExampleServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gRPC client in a second language, made from the export alone (docs/GRPC.md, "Calling RPCX
 * from Python"): the example server's {@code .proto} files as {@code rpcx proto} gives them,
 * compiled as they are by Debian's protoc with grpc's Python plugin, the page's commands and
 * client, and {@code src/test/python/example_client.py} calling every call shape, the health
 * service, and a method the way grpcurl does (reflection and JSON), through Python's grpcio.
 * Without those Debian packages the test skips, naming them; {@code .ci/run} installs them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PythonClientTest {
  private static final String PACKAGES =
      "python3-grpcio python3-protobuf protobuf-compiler libprotobuf-dev protobuf-compiler-grpc";
  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final Path SCRIPTS = Path.of("src/test/python").toAbsolutePath();
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  /** Debian's programs, not others found first on the PATH. */
  private static final Map<String, String> DEBIAN = Map.of("PATH", "/usr/bin:/bin");

  @TempDir Path work;

  @Test
  void aPythonClientMadeFromTheExportCallsEveryShape() throws Exception {
    ForeignClients.skipWithout(PACKAGES, PYTHON, Path.of("/usr/bin/protoc"),
        Path.of("/usr/bin/grpc_python_plugin"),
        Path.of("/usr/include/google/protobuf/timestamp.proto"));
    if (python("-c", "import grpc, google.protobuf").exit() != 0) {
      ForeignClients.skip(PYTHON + "'s modules grpc and google.protobuf", PACKAGES);
    }
    try (ExampleServer example = ExampleServer.start("--port", "0")) {
      String address = "127.0.0.1:" + example.server().port();
      List<String> page = ForeignClients.blocksAfter("run by PythonClientTest");
      assertEquals(3, page.size(), "GRPC.md: the commands, the client and its output");

      List<Path> exported = ForeignClients.exportProtos(address, work.resolve("protos"));
      assertEquals(
          List.of("chat.proto", "echo.proto", "files.proto", "infos.proto", "messages.proto",
              "orders.proto", "rpcx/reflection/v1/Reflection.proto", "rpcx/v1/rpcx.proto"),
          exported.stream().map(file -> work.resolve("protos").relativize(file).toString())
              .sorted().toList());
      // The page's commands: protoc takes the files as they are, without an error or a warning.
      assertEquals(new Finished(0, ""), bash(page.get(0)));

      // The page's client prints what the page says.
      Files.writeString(work.resolve("client.py"), page.get(1).replace("127.0.0.1:9000", address));
      assertEquals(new Finished(0, page.get(2)), python("client.py"));

      // Every shape, the health service and what grpcurl does, with the standard services' files.
      assertEquals(new Finished(0, ""), bash("protoc -I " + SCRIPTS + " --python_out=gen"
          + " --grpc_python_out=gen --plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin "
          + SCRIPTS.resolve("health.proto") + " " + SCRIPTS.resolve("reflection.proto")));
      Finished client = python(SCRIPTS.resolve("example_client.py").toString(), address);
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
              "ok   files.Files/upload('notes.txt', 3 chunks, one empty) counts every chunk and"
                  + " byte",
              "ok   chat.Chat/chat stamps 'hello' with the server's time",
              "ok   chat.Chat/chat stamps '' with the server's time",
              "ok   chat.Chat/chat stamps 'bye' with the server's time",
              "ok   chat.Chat/chat answers each text in turn",
              "ok   chat.Chat/chat numbers the messages in order",
              "ok   chat.Chat/chat ends when the texts end",
              "ok   grpc.reflection.v1.ServerReflection lists the services",
              "ok   grpc.reflection.v1.ServerReflection sends orders.Orders's file and what it"
                  + " imports",
              "ok   orders.Orders/findOrder({\"orderId\": 42}) through the reflected files, in"
                  + " JSON",
              "all checks passed"),
          client.output().lines().toList(),
          client::output);
    }
  }

  private Finished bash(String commands) throws Exception {
    return ForeignClients.run(work, TIMEOUT, DEBIAN, List.of("/bin/bash", "-euc", commands));
  }

  /** Debian's Python, with the modules protoc generated in {@code gen}. */
  private Finished python(String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of(PYTHON.toString()));
    command.addAll(List.of(arguments));
    return ForeignClients.run(work, TIMEOUT, Map.of("PYTHONPATH", "gen"), command);
  }
}
