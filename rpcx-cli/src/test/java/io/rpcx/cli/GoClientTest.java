package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.cli.ForeignClients.Finished;
import io.rpcx.examples.server.ExampleServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gRPC client in Go, made from the export alone (docs/GRPC.md, "Go"): the page's protoc command
 * on the files {@code rpcx proto} gives, and {@code src/test/go/main.go} calling every call shape
 * and the health service through grpc-go, built with Debian 12's Go packages in GOPATH mode (the
 * build machine cannot download Go modules). Without them the test skips, naming them; {@code
 * .ci/run} installs them.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class GoClientTest {
  private static final String PACKAGES = "golang-go golang-google-grpc-dev"
      + " golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev protoc-gen-go"
      + " protoc-gen-go-grpc protobuf-compiler libprotobuf-dev";
  private static final Path GOCODE = Path.of("/usr/share/gocode/src");
  private static final Path MAIN_GO = Path.of("src/test/go/main.go");

  /**
   * Compiled packages are kept under target/ between runs: the first build compiles grpc-go,
   * which takes a minute on two cores.
   */
  private static final Path BUILD_CACHE = Path.of("target/go-build-cache").toAbsolutePath();

  @TempDir Path gopath;

  @Test
  void aGoClientMadeFromTheExportCallsEveryShape() throws Exception {
    ForeignClients.skipWithout(PACKAGES, Path.of("/usr/bin/go"), Path.of("/usr/bin/protoc"),
        Path.of("/usr/bin/protoc-gen-go"), Path.of("/usr/bin/protoc-gen-go-grpc"),
        Path.of("/usr/include/google/protobuf/timestamp.proto"),
        GOCODE.resolve("google.golang.org/grpc/health/grpc_health_v1"),
        GOCODE.resolve("google.golang.org/protobuf/proto"),
        // protobuf-go 1.4 and later: Debian's grpc-go built on 1.3 cannot read today's messages
        GOCODE.resolve("github.com/golang/protobuf/proto/registry.go"));
    Path module = Files.createDirectories(gopath.resolve("src/example.com/client"));
    Files.copy(MAIN_GO, module.resolve("main.go"));
    try (ExampleServer example = ExampleServer.start("--port", "0")) {
      String address = "127.0.0.1:" + example.server().port();
      ForeignClients.exportProtos(address, module.resolve("protos"));
      // The page's command: protoc takes the files as they are, without an error or a warning.
      String generate = ForeignClients.blocksAfter("run by GoClientTest").get(0);
      assertEquals(new Finished(0, ""),
          ForeignClients.run(module, Duration.ofSeconds(60), Map.of("PATH", "/usr/bin:/bin"),
              List.of("/bin/bash", "-euc", generate)));

      Map<String, String> go = Map.of(
          "PATH", "/usr/bin:/bin",
          "GO111MODULE", "off",
          "GOPATH", gopath + ":/usr/share/gocode",
          "GOCACHE", BUILD_CACHE.toString(),
          "GOPROXY", "off",
          "CGO_ENABLED", "0");
      assertEquals(new Finished(0, ""),
          ForeignClients.run(module, Duration.ofSeconds(480), go,
              List.of("/usr/bin/go", "build", "-o", "client", ".")));
      Finished client = ForeignClients.run(module, Duration.ofSeconds(60), Map.of(),
          List.of(module.resolve("client").toString(), address));
      assertEquals(0, client.exit(), client::output);
      assertLinesMatch(
          List.of(
              "ok   grpc.health.v1.Health/Check(\"\") is SERVING",
              "ok   grpc.health.v1.Health/Check(\"orders.Orders\") is SERVING",
              "ok   grpc.health.v1.Health/Check(\"orders\") is SERVING",
              "ok   grpc.health.v1.Health/Check(\"no.such.Service\") fails with NotFound",
              "ok   orders.Orders/findOrder(0) returns the sample order 0",
              "ok   orders.Orders/findOrder() without orderId fails with InvalidArgument",
              "ok   orders.Orders/findOrder(-1) fails with Unknown, saying why",
              "ok   orders.Orders/findOrder(-1) names the exception in the rpcx-exception-class"
                  + " trailer",
              "ok   orders.Orders/streamOrders(3) streams the sample orders 0, 1, 2",
              "ok   files.Files/upload(\"notes.txt\", 3 chunks, one empty) counts every chunk and"
                  + " byte",
              "ok   chat.Chat/chat answers each text in turn, and ends when the texts end",
              "all checks passed"),
          client.output().lines().toList(),
          client::output);
    }
  }

  /** The Go code docs/GRPC.md shows is main.go's, line for line. */
  @Test
  void theGoOfTheGrpcPageIsMainGo() throws Exception {
    List<String> program = Files.readAllLines(MAIN_GO).stream().map(String::strip).toList();
    for (String block : ForeignClients.blocksAfter("lines of rpcx-cli/src/test/go/main.go")) {
      for (String line : block.lines().toList()) {
        assertTrue(program.contains(line.strip()),
            ForeignClients.GRPC_MD + ": a line not in " + MAIN_GO + ": " + line);
      }
    }
  }
}
