package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.RawCall;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import io.rpcx.testing.RpcxExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A raw call (names, type descriptors and encoded value messages, no Java interface) goes through
 * the proxies' path: the same bytes on the wire, the client's metadata and interceptors, and the
 * same typed failures.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RawCallTest {
  /** What this class's tests may log: the failure it provokes. */
  private static LogCapture logs;

  @BeforeAll
  static void captureLogs() {
    logs = LogCapture.warnings("io.rpcx");
  }

  @AfterAll
  static void onlyWhatTheTestsProvoked() {
    try {
      logs.assertOnly(
          Level.WARN,
          "WARN [\\w.]+/\\w+ threw java\\.lang\\.IllegalStateException: [^\\[]* \\(for [^)]+\\)"
              + " \\[java\\.lang\\.IllegalStateException: [^\\]]*\\]");
    } finally {
      logs.close();
    }
  }


  @RPCXClient(name = "raw")
  public interface Raw {
    String greet(String name, int times);

    long add(long a, long b);

    double half(double value);

    void nothing();

    Point point(Point point);

    String metadata(String key);

    String fail(String message);
  }

  public record Point(int x, String label) {}

  @RPCXServer(name = "raw")
  public static final class RawImpl implements Raw {
    @Override
    public String greet(String name, int times) {
      return ("hi " + name + " ").repeat(times).strip();
    }

    @Override
    public long add(long a, long b) {
      return a + b;
    }

    @Override
    public double half(double value) {
      return value / 2;
    }

    @Override
    public void nothing() {}

    @Override
    public Point point(Point point) {
      return point == null ? null : new Point(point.x() + 1, point.label() + "!");
    }

    @Override
    public String metadata(String key) {
      return RpcxContext.current().metadata().getOrDefault(key, "none");
    }

    @Override
    public String fail(String message) {
      throw new IllegalStateException(message);
    }
  }

  static final List<String> events = new CopyOnWriteArrayList<>();

  @RegisterExtension
  static final RpcxExtension rpcx =
      RpcxExtension.withServices(new RawImpl())
          .client(
              client ->
                  client
                      .metadata("tenant", "a")
                      .intercept(
                          new ClientInterceptor() {
                            @Override
                            public void onStart(ClientCall call) {
                              events.add("start " + call.method().fullName()
                                  + " " + call.method().javaMethod() + " "
                                  + call.arguments().size());
                            }

                            @Override
                            public void onEnd(ClientCall call, CallResult result) {
                              events.add("end " + call.method().method() + " " + result.status());
                            }
                          }));

  private static byte[] string(String text) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    byte[] message = new byte[utf8.length + 2];
    message[0] = 0x0a;
    message[1] = (byte) utf8.length;
    System.arraycopy(utf8, 0, message, 2, utf8.length);
    return message;
  }

  private static byte[] call(RawCall call) {
    return rpcx.client().call(call).join();
  }

  private static RpcxException failure(RawCall call) {
    CompletionException thrown =
        assertThrows(CompletionException.class, () -> rpcx.client().call(call).join());
    return assertInstanceOf(RpcxException.class, thrown.getCause());
  }

  @Test
  void scalarArgumentsAndResultsAreValueMessagesExactlyAsAProxySendsThem() {
    RawCall greet =
        RawCall.builder("raw", "greet")
            .argument("string", string("bo"))
            .argument("int32", new byte[] {0x08, 0x02})
            .result("string")
            .build();
    assertArrayEquals(string("hi bo hi bo"), call(greet));

    RawCall add =
        RawCall.builder("raw", "add")
            .argument("int64", new byte[] {0x08, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01}) // -1
            .argument("int64", new byte[] {0x08, 0x05})
            .result("int64")
            .build();
    assertArrayEquals(new byte[] {0x08, 0x04}, call(add));

    RawCall half =
        RawCall.builder("raw", "half")
            .argument("double", new byte[] {0x09, 0, 0, 0, 0, 0, 0, 0x10, 0x40}) // 4.0
            .result("double")
            .build();
    assertArrayEquals(new byte[] {0x09, 0, 0, 0, 0, 0, 0, 0, 0x40}, call(half)); // 2.0
  }

  @Test
  void aVoidResultAndANullResultAreTheEmptyValueMessage() {
    assertArrayEquals(new byte[0], call(RawCall.builder("raw", "nothing").build()));
    RawCall nullPoint =
        RawCall.builder("raw", "point").argument("Point", new byte[0]).result("Point").build();
    assertArrayEquals(new byte[0], call(nullPoint));
  }

  @Test
  void aPojoIsSentWithTheServersOwnFieldNumbers() {
    // Point: label = 1 (string), x = 2 (int32), numbered by name.
    byte[] point = {0x0a, 0x05, 0x0a, 0x01, 'p', 0x10, 0x29}; // {label: "p", x: 41}
    RawCall call = RawCall.builder("raw", "point").argument("Point", point).result("Point").build();
    assertArrayEquals(new byte[] {0x0a, 0x06, 0x0a, 0x02, 'p', '!', 0x10, 0x2a}, call(call));
  }

  @Test
  void theClientsMetadataAndInterceptorsApplyAndTheJavaMethodIsNull() {
    events.clear();
    RawCall call =
        RawCall.builder("raw", "metadata").argument("string", string("tenant")).result("string")
            .build();
    assertArrayEquals(string("a"), call(call));
    assertEquals(List.of("start raw/metadata null 1", "end metadata OK"), events);
  }

  @Test
  void failuresAreTheTypedExceptionsOfProxies() {
    RpcxException unknownMethod = failure(RawCall.builder("raw", "nope").build());
    assertInstanceOf(NotFoundException.class, unknownMethod);
    assertEquals(StatusCode.NOT_FOUND, unknownMethod.status());
    assertEquals(
        "raw/nope failed on 127.0.0.1:" + rpcx.port() + ": service 'raw' has no method 'nope'",
        unknownMethod.getMessage());

    RpcxException wrongType =
        failure(RawCall.builder("raw", "greet").argument("int32", new byte[] {0x08, 0x01})
            .argument("int32", new byte[] {0x08, 0x01}).result("string").build());
    assertInstanceOf(BadRequestException.class, wrongType);

    RpcxException thrown =
        failure(RawCall.builder("raw", "fail").argument("string", string("boom")).result("string")
            .build());
    assertInstanceOf(RemoteFailureException.class, thrown);
    assertEquals(
        "raw/fail on 127.0.0.1:" + rpcx.port() + " threw java.lang.IllegalStateException: boom",
        thrown.getMessage());
  }

  @Test
  void aValueMessageOfTheWrongWireTypeIsRefusedBeforeTheCallIsSent() {
    RawCall call = RawCall.builder("raw", "greet").argument("int32", string("x")).build();
    IllegalArgumentException thrown =
        assertThrows(IllegalArgumentException.class, () -> rpcx.client().call(call));
    assertEquals(
        "argument 0 of raw/greet: a value message of type int32 must be empty or start with field"
            + " 1 of wire type VARINT (tag byte 0x8), not byte 0xa",
        thrown.getMessage());
  }

  @Test
  void anInProcessClientSendsRawCallsToItsInProcessServer() {
    RpcxServer server =
        RpcxServer.builder().inProcess("raw-calls").service(new RawImpl()).build().start();
    try (RpcxClient client = RpcxClient.builder().inProcess("raw-calls").build()) {
      RawCall greet =
          RawCall.builder("raw", "greet")
              .argument("string", string("in"))
              .argument("int32", new byte[] {0x08, 0x01})
              .result("string")
              .build();
      assertArrayEquals(string("hi in"), client.call(greet).join());
    } finally {
      server.stop(Duration.ofSeconds(5));
    }
  }

  @Test
  void aClientWithoutADefaultTargetNamesWhatIsMissing() {
    try (RpcxClient client = RpcxClient.builder().build()) {
      IllegalArgumentException thrown =
          assertThrows(
              IllegalArgumentException.class,
              () -> client.call(RawCall.builder("raw", "nothing").build()));
      assertEquals(
          "no server address for service 'raw': call RpcxClient.Builder.target(...) or"
              + " discovery(...)",
          thrown.getMessage());
    }
  }

  @Test
  void aStreamArgumentIsRefusedWhenTheCallIsBuilt() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> RawCall.builder("uploads", "count").argument("stream<string>", new byte[0]));
    assertEquals(
        "argument 0 of uploads/count is a stream (stream<string>): a raw call sends one request and"
            + " takes one reply; call client and bidirectional streams from Java"
            + " (docs/STREAMING.md)",
        refused.getMessage());
  }
}
