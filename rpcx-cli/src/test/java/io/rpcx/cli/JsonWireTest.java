package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.server.RpcxServer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JSON a user types becomes exactly the Java values the server's own codecs read, for every
 * type descriptor, and results come back as the same JSON: a round trip through a real server.
 * Mistakes name the argument, the field and the expected type.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JsonWireTest {
  private static RpcxServer server;
  private static String address;

  @BeforeAll
  static void start() {
    server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shapes.Impl())
            .reflection(true)
            .build()
            .start();
    address = "127.0.0.1:" + server.port();
  }

  @AfterAll
  static void stop() {
    server.stop(Duration.ofSeconds(5));
  }

  private static final String EVERYTHING =
      """
      {
        "flag": true,
        "small": -7,
        "big": 9007199254740993,
        "letter": "x",
        "ratio": 0.5,
        "precise": 3.25,
        "text": "héllo",
        "data": "AQID",
        "color": "GREEN",
        "at": "2024-05-01T10:00:00.5Z",
        "took": "PT1.5S",
        "day": "2024-05-01",
        "moment": "2024-05-01T10:15:30.000000001",
        "amount": "12.50",
        "huge": 123456789012345678901234567890,
        "id": "123e4567-e89b-12d3-a456-426614174000",
        "numbers": [1, null, 3],
        "words": ["a", "", "c"],
        "ids": [5],
        "counts": {"one": 1, "none": null},
        "parts": {"7": {"name": "bolt", "weight": 0.25}},
        "grid": [[1, 2], [], [3]],
        "part": {"name": "nut", "weight": 1.5},
        "partList": [{"name": "a", "weight": 1.0}, null],
        "boxed": 0
      }
      """;

  private static Shapes.Everything expected(byte[] data) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("one", 1);
    counts.put("none", null);
    return new Shapes.Everything(
        true,
        -7,
        9007199254740993L,
        'x',
        0.5f,
        3.25,
        "héllo",
        data,
        Shapes.Color.GREEN,
        Instant.parse("2024-05-01T10:00:00.5Z"),
        Duration.ofMillis(1500),
        LocalDate.of(2024, 5, 1),
        LocalDateTime.of(2024, 5, 1, 10, 15, 30, 1),
        new BigDecimal("12.50"),
        new BigInteger("123456789012345678901234567890"),
        UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
        Arrays.asList(1, null, 3),
        List.of("a", "", "c"),
        Set.of(5L),
        counts,
        Map.of(7L, new Shapes.Part("bolt", 0.25)),
        List.of(List.of(1L, 2L), List.of(), List.of(3L)),
        new Shapes.Part("nut", 1.5),
        Arrays.asList(new Shapes.Part("a", 1.0), null),
        0);
  }

  @Test
  void everyShapeReachesTheServerAsTheJavaValueItStandsForAndComesBackAsTheSameJson() {
    Cli.Run run = Cli.run("call", address, "shapes/echo", "[" + EVERYTHING + "]");

    assertEquals(0, run.exit(), run::toString);
    assertEquals("", run.err());
    Shapes.Everything received = (Shapes.Everything) Shapes.received.get();
    assertArrayEquals(new byte[] {1, 2, 3}, received.data());
    assertEquals(expected(received.data()), received);
    assertEquals(
        """
        {
          "amount": 12.50,
          "at": "2024-05-01T10:00:00.500Z",
          "big": 9007199254740993,
          "boxed": 0,
          "color": "GREEN",
          "counts": {
            "one": 1,
            "none": null
          },
          "data": "AQID",
          "day": "2024-05-01",
          "flag": true,
          "grid": [
            [
              1,
              2
            ],
            [ ],
            [
              3
            ]
          ],
          "huge": 123456789012345678901234567890,
          "id": "123e4567-e89b-12d3-a456-426614174000",
          "ids": [
            5
          ],
          "letter": "x",
          "moment": "2024-05-01T10:15:30.000000001",
          "numbers": [
            1,
            null,
            3
          ],
          "part": {
            "name": "nut",
            "weight": 1.5
          },
          "partList": [
            {
              "name": "a",
              "weight": 1.0
            },
            null
          ],
          "parts": {
            "7": {
              "name": "bolt",
              "weight": 0.25
            }
          },
          "precise": 3.25,
          "ratio": 0.5,
          "small": -7,
          "text": "héllo",
          "took": "PT1.5S",
          "words": [
            "a",
            "",
            "c"
          ]
        }
        """,
        run.out());
  }

  @Test
  void listsMapsOfListsOptionalsBytesAndScalarsAsWholeArguments() {
    Cli.Run list = Cli.run("call", address, "shapes/echoAll", "[[{\"small\": 1}, null]]");
    assertEquals(0, list.exit(), list::toString);
    assertEquals("[\n  {\n    \"small\": 1\n  },\n  null\n]\n", list.out());

    Cli.Run nested = Cli.run("call", address, "shapes/nested", "[{\"a\": [1, 2], \"b\": []}]");
    assertEquals(0, nested.exit(), nested::toString);
    assertEquals(Map.of("a", List.of(1, 2), "b", List.of()), Shapes.received.get());
    assertEquals("{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": [ ]\n}\n", nested.out());

    Cli.Run present = Cli.run("call", address, "shapes/maybe", "[\"here\"]");
    assertEquals(Optional.of("here"), Shapes.received.get());
    assertEquals("\"here\"\n", present.out());
    Cli.Run absent = Cli.run("call", address, "shapes/maybe", "[null]");
    assertEquals(Optional.empty(), Shapes.received.get());
    assertEquals("null\n", absent.out());

    assertEquals("5\n", Cli.run("call", address, "shapes/add", "[2, 3]").out());
    assertEquals("-1\n", Cli.run("call", address, "shapes/add", "[\"-3\", 2]").out());
    assertEquals("\"AAEC\"\n", Cli.run("call", address, "shapes/bytes", "[\"AAEC\"]").out());
    Cli.Run nothing = Cli.run("call", address, "shapes/nothing");
    assertEquals(0, nothing.exit(), nothing::toString);
    assertEquals("", nothing.out());
  }

  @Test
  void protobufMessagesAreWrittenAndReadWithTheServersDescriptors() {
    Cli.Run api =
        Cli.run("call", address, "shapes/api",
            "[{\"name\": \"pets\", \"version\": \"v1\", \"syntax\": \"SYNTAX_PROTO3\","
                + " \"methods\": [{\"name\": \"list\", \"request_streaming\": true,"
                + " \"options\": [{\"name\": \"o\"}]}]}]");
    assertEquals(0, api.exit(), api::toString);
    assertEquals(
        com.google.protobuf.Api.newBuilder()
            .setName("pets")
            .setVersion("v1")
            .setSyntax(com.google.protobuf.Syntax.SYNTAX_PROTO3)
            .addMethods(
                com.google.protobuf.Method.newBuilder()
                    .setName("list")
                    .setRequestStreaming(true)
                    .addOptions(com.google.protobuf.Option.newBuilder().setName("o")))
            .build(),
        Shapes.received.get());
    assertEquals(
        """
        {
          "name": "pets",
          "methods": [
            {
              "name": "list",
              "requestStreaming": true,
              "options": [
                {
                  "name": "o"
                }
              ]
            }
          ],
          "version": "v1",
          "syntax": "SYNTAX_PROTO3"
        }
        """,
        api.out());

    Cli.Run struct =
        Cli.run("call", address, "shapes/struct",
            "[{\"fields\": {\"a\": {\"numberValue\": 1.5},"
                + " \"b\": {\"listValue\": {\"values\": [{\"stringValue\": \"x\"}]}}}}]");
    assertEquals(0, struct.exit(), struct::toString);
    assertEquals(
        com.google.protobuf.Struct.newBuilder()
            .putFields("a", com.google.protobuf.Value.newBuilder().setNumberValue(1.5).build())
            .putFields(
                "b",
                com.google.protobuf.Value.newBuilder()
                    .setListValue(
                        com.google.protobuf.ListValue.newBuilder()
                            .addValues(com.google.protobuf.Value.newBuilder().setStringValue("x")))
                    .build())
            .build(),
        Shapes.received.get());
    assertEquals(
        "{\n  \"fields\": {\n    \"a\": {\n      \"numberValue\": 1.5\n    },\n    \"b\": {\n"
            + "      \"listValue\": {\n        \"values\": [\n          {\n"
            + "            \"stringValue\": \"x\"\n          }\n        ]\n      }\n    }\n  }\n}\n",
        struct.out());

    assertEquals(
        new Cli.Run(2, "", "argument 'value' field 'methods[0].requestStreaming': expected bool,"
            + " got \"yes\"\n"),
        Cli.run("call", address, "shapes/api",
            "[{\"methods\": [{\"requestStreaming\": \"yes\"}]}]"));
    assertEquals(
        new Cli.Run(2, "", "argument 'value' field 'feilds': google.protobuf.Struct has no field"
            + " 'feilds' (its fields: fields)\n"),
        Cli.run("call", address, "shapes/struct", "[{\"feilds\": {}}]"));
  }

  @Test
  void aCallThatOutlivesTimeoutExitsWithTheTimeoutCode() {
    Cli.Run run = Cli.run("call", address, "shapes/sleep", "[3000]", "--timeout", "300ms");
    assertEquals(
        new Cli.Run(13, "", "TIMEOUT: shapes/sleep timed out after 300 ms waiting for " + address
            + "\n"),
        run);
  }

  private static void assertRefused(String json, String message) {
    Cli.Run run = Cli.run("call", address, "shapes/echo", "[" + json + "]");
    assertEquals(new Cli.Run(2, "", message + "\n"), run);
  }

  @Test
  void aValueOfTheWrongTypeIsNamedByArgumentFieldAndExpectedType() {
    assertRefused("{\"small\": \"three\"}",
        "argument 'value' field 'small': expected int32, got \"three\"");
    assertRefused("{\"small\": 3000000000}",
        "argument 'value' field 'small': expected int32, got 3000000000");
    assertRefused("{\"big\": 1.5}", "argument 'value' field 'big': expected int64, got 1.5");
    assertRefused("{\"flag\": \"yes\"}", "argument 'value' field 'flag': expected bool, got \"yes\"");
    assertRefused("{\"letter\": \"xy\"}",
        "argument 'value' field 'letter': expected char (a string of one character), got \"xy\"");
    assertRefused("{\"ratio\": \"half\"}",
        "argument 'value' field 'ratio': expected float, got \"half\"");
    assertRefused("{\"text\": 5}", "argument 'value' field 'text': expected string, got 5");
    assertRefused("{\"data\": \"***\"}",
        "argument 'value' field 'data': expected bytes (a base64 string), got \"***\"");
    assertRefused("{\"color\": \"BLUE\"}",
        "argument 'value' field 'color': expected Color (one of RED, GREEN), got \"BLUE\"");
    assertRefused("{\"at\": \"yesterday\"}",
        "argument 'value' field 'at': expected timestamp (an ISO-8601 instant such as"
            + " \"2024-05-01T10:00:00Z\"), got \"yesterday\"");
    assertRefused("{\"took\": 5}",
        "argument 'value' field 'took': expected duration (an ISO-8601 duration such as"
            + " \"PT1.5S\"), got 5");
    assertRefused("{\"day\": \"2024-13-01\"}",
        "argument 'value' field 'day': expected date (an ISO-8601 date such as \"2024-05-01\"),"
            + " got \"2024-13-01\"");
    assertRefused("{\"moment\": \"2024-05-01\"}",
        "argument 'value' field 'moment': expected datetime (an ISO-8601 date and time such as"
            + " \"2024-05-01T10:00:00\"), got \"2024-05-01\"");
    assertRefused("{\"amount\": \"ten\"}",
        "argument 'value' field 'amount': expected decimal (a number or a string such as"
            + " \"12.50\"), got \"ten\"");
    assertRefused("{\"huge\": 1.5}",
        "argument 'value' field 'huge': expected bigint (an integer), got 1.5");
    assertRefused("{\"id\": \"nope\"}",
        "argument 'value' field 'id': expected uuid (a UUID such as"
            + " \"123e4567-e89b-12d3-a456-426614174000\"), got \"nope\"");
    assertRefused("{\"numbers\": [1, \"two\"]}",
        "argument 'value' field 'numbers[1]': expected int32, got \"two\"");
    assertRefused("{\"numbers\": 1}",
        "argument 'value' field 'numbers': expected list<int32> (a JSON array), got 1");
    assertRefused("{\"counts\": {\"a\": true}}",
        "argument 'value' field 'counts[\"a\"]': expected int32, got true");
    assertRefused("{\"parts\": {\"seven\": {}}}",
        "argument 'value' field 'parts[\"seven\"]': expected int64, got \"seven\"");
    assertRefused("{\"grid\": [[1], [\"x\"]]}",
        "argument 'value' field 'grid[1][0]': expected int64, got \"x\"");
    assertRefused("{\"partList\": [{\"weight\": \"heavy\"}]}",
        "argument 'value' field 'partList[0].weight': expected double, got \"heavy\"");
    assertRefused("{\"part\": [1]}",
        "argument 'value' field 'part': expected Part (a JSON object with fields [name, weight]),"
            + " got [1]");
    assertRefused("{\"colour\": \"RED\"}",
        "argument 'value' field 'colour': Everything has no field 'colour' (its fields: amount, at,"
            + " big, boxed, color, counts, data, day, flag, grid, huge, id, ids, letter, moment,"
            + " numbers, part, partList, parts, precise, ratio, small, text, took, words)");
    assertRefused("\"" + "x".repeat(50) + "\"",
        "argument 'value': expected Everything (a JSON object with fields [amount, at, big, boxed,"
            + " color, counts, data, day, flag, grid, huge, id, ids, letter, moment, numbers, part,"
            + " partList, parts, precise, ratio, small, text, took, words]), got"
            + " \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...");
  }
}
