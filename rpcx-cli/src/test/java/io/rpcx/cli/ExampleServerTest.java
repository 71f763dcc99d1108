package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.examples.server.ExampleServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rpcx} against the example server, as a user runs it: list, describe, every example method
 * called with the JSON a user would type, and each mistake reported in one line with its exit
 * code.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExampleServerTest {
  private static ExampleServer example;
  private static String address;

  @BeforeAll
  static void start() {
    example = ExampleServer.start("--port", "0");
    address = "127.0.0.1:" + example.server().port();
  }

  @AfterAll
  static void stop() {
    example.close();
  }

  private static Cli.Run ok(String... args) {
    Cli.Run run = Cli.run(args);
    assertEquals(0, run.exit(), run::toString);
    assertEquals("", run.err(), run::toString);
    return run;
  }

  private static JsonNode json(Cli.Run run) {
    return Json.parse(run.out(), "output");
  }

  @Test
  void listPrintsTheServicesOnePerLine() {
    assertEquals(
        "chat\necho\nfiles\ninfos\nmessages\norders\nrpcx.reflection.v1.Reflection\n",
        ok("list", address).out());
    assertEquals(
        "[\n  \"chat\",\n  \"echo\",\n  \"files\",\n  \"infos\",\n  \"messages\",\n  \"orders\",\n"
            + "  \"rpcx.reflection.v1.Reflection\"\n]\n",
        ok("list", address, "--json").out());
  }

  @Test
  void describeShowsSignaturesAndFieldNumbers() {
    assertEquals(
        """
        service orders
          findOrder(int64 orderId) -> OrderInfo throws io.rpcx.examples.api.OrderNotFoundException  [Java method find]

        class OrderInfo (io.rpcx.examples.api.OrderInfo)
          1   attributes               map<string,string>
          2   billNumber               string
          3   createdAt                timestamp
          4   customer                 string
          5   items                    list<OrderItem>
          6   orderId                  int64
          7   paid                     bool
          8   remark                   string
          9   status                   OrderStatus
          10  tags                     list<string>
          11  totalAmount              decimal

        class OrderItem (io.rpcx.examples.api.OrderItem)
          1   name                     string
          2   quantity                 int32
          3   sku                      string
          4   unitPrice                decimal

        enum OrderStatus (io.rpcx.examples.api.OrderStatus)
          CREATED, PAID, SHIPPED, DELIVERED, CANCELLED
        """,
        ok("describe", address, "orders/findOrder").out());

    assertEquals(
        """
        service messages
          create(string text) -> Message
          findById(int64 id) -> Message
          remove(int64 id) -> bool
          update(int64 id, string text) -> bool

        record Message (io.rpcx.examples.api.Message)
          1   createdAt                timestamp
          2   id                       int64
          3   text                     string
        """,
        ok("describe", address, "messages").out());

    JsonNode echo = json(ok("describe", address, "echo", "--json"));
    assertEquals("echo", echo.get("name").asText());
    assertEquals("echoAsync", echo.get("methods").get(1).get("name").asText());
    assertTrue(echo.get("methods").get(1).get("asynchronous").asBoolean());
    assertEquals("string", echo.get("methods").get(0).get("parameters").get(0).get("type").asText());
  }

  @Test
  void protoPrintsTheServicesProtoFileFirstAndSaysHowToGetFilesForProtoc() {
    Cli.Run run = Cli.run("proto", address, "echo");
    assertEquals(0, run.exit(), run::toString);
    assertTrue(run.out().startsWith("// file: echo.proto\n"), run::toString);
    assertTrue(run.out().contains("message EchoRequest {"), run::toString);
    assertTrue(run.out().contains("\n// file: rpcx/v1/rpcx.proto\n"), run::toString);
    assertEquals(
        "2 files printed one after another; for protoc, write them with --out DIR (or one at a time"
            + " with --file NAME)\n",
        run.err());
  }

  @Test
  void protoOutWritesEachFileWhereProtocLooksForItsImports(@TempDir Path directory)
      throws IOException {
    Path out = directory.resolve("protos");
    Cli.Run run = ok("proto", address, "echo", "--out", out.toString());
    assertEquals(
        out.resolve("echo.proto") + "\n" + out.resolve("rpcx/v1/rpcx.proto") + "\n", run.out());
    String echo = Files.readString(out.resolve("echo.proto"));
    assertTrue(echo.contains("message EchoRequest {"), echo);
    assertTrue(!echo.contains("// file:"), echo);
    assertTrue(Files.readString(out.resolve("rpcx/v1/rpcx.proto")).contains("package rpcx.v1;"));
  }

  @Test
  void protoFilePrintsOneFileAsItIs() {
    String echo = ok("proto", address, "echo", "--file", "echo.proto").out();
    assertTrue(echo.startsWith("syntax = \"proto3\";") || echo.startsWith("//"), echo);
    assertTrue(!echo.contains("// file:") && !echo.contains("package rpcx.v1;"), echo);
    assertFails(2, "--file: no file 'nope.proto' (the files: echo.proto, rpcx/v1/rpcx.proto)",
        "proto", address, "echo", "--file", "nope.proto");
  }

  @Test
  void everyExampleMethodIsCalledWithTheJsonAUserTypes() throws IOException {
    assertEquals("\"hi\"\n", ok("call", address, "echo/echo", "[\"hi\"]").out());
    assertEquals("\"hi\"\n", ok("call", address, "echo/echoAsync", "[\"hi\"]").out());

    JsonNode info = json(ok("call", address, "infos/request", "[1, false]"));
    assertEquals(1, info.get("id").asInt());
    assertEquals("Ada", info.get("firstName").asText());
    assertEquals(null, info.get("photo"));
    JsonNode withPhoto = json(ok("call", address, "infos/request", "[2, true]"));
    assertEquals(1 << 20, Base64.getDecoder().decode(withPhoto.get("photo").asText()).length);

    JsonNode created = json(ok("call", address, "messages/create", "[\"hello\"]"));
    long id = created.get("id").asLong();
    assertEquals("hello", created.get("text").asText());
    assertTrue(created.get("createdAt").asText().endsWith("Z"), created::toString);
    assertEquals("true\n", ok("call", address, "messages/update", "[" + id + ", \"bye\"]").out());
    assertEquals("true\n", // or by parameter name, in any order
        ok("call", address, "messages/update", "{\"text\": \"bye\", \"id\": " + id + "}").out());
    assertEquals("bye", json(ok("call", address, "messages/findById", "[" + id + "]")).get("text").asText());
    assertEquals("true\n", ok("call", address, "messages/remove", "[" + id + "]").out());
    assertEquals("null\n", ok("call", address, "messages/findById", "[" + id + "]").out());
    assertEquals("false\n", ok("call", address, "messages/remove", "[" + id + "]").out());

    assertEquals("\"abc\"\n", ok("call", address, "orders/sendStr", "[\"abc\"]").out());
    JsonNode found = json(ok("call", address, "orders/findOrder", "[42]"));
    assertEquals("BN-2024-000042", found.get("billNumber").asText());
    String order =
        "{\"orderId\": 7, \"customer\": \"ann\", \"createdAt\": \"2024-05-01T10:00:00Z\","
            + " \"status\": \"PAID\", \"totalAmount\": \"12.50\", \"paid\": true,"
            + " \"items\": [{\"sku\": \"A-1\", \"name\": \"pen\", \"quantity\": 2, \"unitPrice\": 6.25}],"
            + " \"tags\": [\"gift\"], \"attributes\": {\"channel\": \"web\"}}";
    assertEquals(
        """
        {
          "attributes": {
            "channel": "web"
          },
          "createdAt": "2024-05-01T10:00:00Z",
          "customer": "ann",
          "items": [
            {
              "name": "pen",
              "quantity": 2,
              "sku": "A-1",
              "unitPrice": 6.25
            }
          ],
          "orderId": 7,
          "paid": true,
          "status": "PAID",
          "tags": [
            "gift"
          ],
          "totalAmount": 12.50
        }
        """,
        ok("call", address, "orders/loadOrder", "[" + order + "]").out());
    JsonNode orders = json(ok("call", address, "orders/loadOrders", "[[" + order + ", " + order + "]]"));
    assertEquals(2, orders.size());
    assertEquals("ann", orders.get(1).get("customer").asText());
  }

  @Test
  void argumentsComeFromAFileOrStdin(@TempDir Path directory) throws IOException {
    Path file = directory.resolve("args.json");
    Files.writeString(file, "[\"from a file\"]");
    assertEquals("\"from a file\"\n", ok("call", address, "echo/echo", "-d", "@" + file).out());
    Cli.Run stdin = Cli.runWithInput("[\"from stdin\"]", "call", address, "echo/echo", "-");
    assertEquals(new Cli.Run(0, "\"from stdin\"\n", ""), stdin);
    Cli.Run dashD = Cli.runWithInput("[\"again\"]", "call", address, "echo/echo", "-d", "@-");
    assertEquals(new Cli.Run(0, "\"again\"\n", ""), dashD);
  }

  private static void assertFails(int exit, String err, String... args) {
    assertEquals(new Cli.Run(exit, "", err + "\n"), Cli.run(args));
  }

  @Test
  void eachMistakeIsOneLineWithItsExitCode() throws IOException {
    assertFails(2, "bad address 'localhost' (expected: HOST:PORT, such as localhost:9000)",
        "list", "localhost");
    assertFails(2, "bad address 'localhost:99999' (expected: HOST:PORT, such as localhost:9000)",
        "list", "localhost:99999");
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    assertFails(3, "cannot connect to 127.0.0.1:" + closed + ": Connection refused",
        "list", "127.0.0.1:" + closed);
    assertFails(2, "arguments: not valid JSON at line 1, column 7: Unexpected end-of-input"
            + " within/between Array entries",
        "call", address, "echo/echo", "[\"hi\",");
    assertFails(2, "argument 'order' field 'items[2].quantity': expected int32, got \"three\"",
        "call", address, "orders/loadOrder", "[{\"items\": [{}, {}, {\"quantity\": \"three\"}]}]");
    assertFails(12, "NOT_FOUND: " + address + " publishes no service 'nope' (it publishes: chat,"
            + " echo, files, infos, messages, orders)",
        "call", address, "nope/echo", "[]");
    assertFails(12, "NOT_FOUND: service 'echo' has no method 'shout' (its methods: echo, echoAsync)",
        "call", address, "echo/shout", "[\"hi\"]");
    assertFails(2, "echo/echo takes 1 argument, got 2 (echo/echo(string text) -> string)",
        "call", address, "echo/echo", "[\"a\", \"b\"]");
    assertFails(2, "orders/streamOrders is a server stream (it returns stream<OrderInfo>); rpcx"
            + " calls methods with one reply only: call it from Java (docs/STREAMING.md)",
        "call", address, "orders/streamOrders", "[3]");
    assertFails(2, "the arguments must be a JSON array of 2 arguments or an object of them by"
            + " name, got \"one\" (messages/update(int64 id, string text) -> bool)",
        "call", address, "messages/update", "\"one\"");
    assertFails(2, "messages/update has no parameter 'ident' (its parameters: id, text;"
            + " messages/update(int64 id, string text) -> bool)",
        "call", address, "messages/update", "{\"ident\": 1}");
    assertFails(15, "REMOTE_FAILURE: orders/findOrder on " + address + " threw"
            + " io.rpcx.examples.api.OrderNotFoundException: no order -5",
        "call", address, "orders/findOrder", "[-5]");
    assertFails(2, "-d @/no/such/file.json: no such file /no/such/file.json",
        "call", address, "echo/echo", "-d", "@/no/such/file.json");
    assertFails(2, "Missing required parameter: 'SERVICE/METHOD' (see 'rpcx call --help')",
        "call", address);
    assertFails(2, "Invalid value for option '--timeout': '3x' is not a duration (expected: such"
            + " as 500ms, 10s, 1.5s, 2m or PT30S) (see 'rpcx list --help')",
        "list", address, "--timeout", "3x");
  }

  @Test
  void helpListsTheExitCodesAndCompletionIsGenerated() {
    String help = ok("--help").out();
    assertTrue(help.contains("Exit codes:\n  0     OK\n"), help);
    assertTrue(help.contains("  3     cannot connect"), help);
    assertTrue(help.contains("  17    UNAUTHENTICATED\n"), help);
    assertTrue(help.contains("  130   interrupted (Ctrl-C); bench prints the summary of what ran"
        + " first\n"), help);
    String bench = ok("bench", "--help").out();
    assertTrue(
        bench.replaceAll("\\s+", " ").contains("Exits 0 when every call succeeded; otherwise with"
            + " the code of the status most failed calls had (the summary is printed all the"
            + " same). Ctrl-C ends the run: it prints the summary of the calls answered until then"
            + " and exits 130."),
        bench);
    String completion = ok("generate-completion").out();
    assertTrue(completion.contains("complete -F _complete_rpcx"), completion);
  }
}
