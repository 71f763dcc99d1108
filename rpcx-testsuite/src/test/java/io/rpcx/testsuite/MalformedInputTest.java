package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.google.protobuf.ByteString;
import com.google.protobuf.StringValue;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.Preface;
import io.rpcx.core.internal.protocol.proto.GoAway;
import io.rpcx.core.internal.protocol.proto.RPCXReply;
import io.rpcx.core.internal.protocol.proto.RPCXRequest;
import io.rpcx.core.internal.protocol.proto.StatusCode;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.testing.RpcxExtension;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Malformed input from one peer gets a clear error or a closed connection — never a hang, never a
 * reply delivered to the wrong call — and every other connection keeps being served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MalformedInputTest {
  /**
   * What this class's tests may log: the connection each malformed input closes.
   */
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
          "WARN Closing connection (from /127\\.0\\.0\\.1|to 127\\.0\\.0\\.1):\\d+: .*");
    } finally {
      logs.close();
    }
  }


  @RegisterExtension
  static final RpcxExtension rpcx = RpcxExtension.withServices(new EchoService.Impl());

  private Bystander bystander;

  @BeforeEach
  void startBystander() throws Exception {
    bystander = new Bystander(rpcx.port());
    bystander.awaitProgress();
  }

  @AfterEach
  void bystanderSawNoError() throws Exception {
    bystander.awaitProgress();
    bystander.close();
    assertEquals(0, bystander.errors(), "bystander errors, first: " + bystander.firstError());
  }

  private static void assertClosedAfter(Consumer<RawConnection> abuse) throws Exception {
    try (RawConnection raw = new RawConnection(rpcx.port()).handshake()) {
      abuse.accept(raw);
      assertTrue(raw.closedByServer(), "the server closed the abusive connection");
    }
  }

  private static byte[] header(long length, int type) {
    return new byte[] {
      (byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length,
      (byte) type, 0
    };
  }

  private static void send(RawConnection raw, byte[] bytes) {
    try {
      raw.send(bytes);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void garbageBytesAfterThePreface() throws Exception {
    byte[] garbage = new byte[4096];
    new java.util.Random(7).nextBytes(garbage);
    assertClosedAfter(raw -> send(raw, garbage));
  }

  @Test
  void aFrameTooShortForItsHeader() throws Exception {
    assertClosedAfter(raw -> send(raw, new byte[] {0, 0, 0, 1, 1}));
  }

  @Test
  void anUnknownFrameType() throws Exception {
    try (RawConnection raw = new RawConnection(rpcx.port()).handshake()) {
      raw.sendFrame((byte) 0x7f, new byte[3]);
      RawConnection.Frame goAway = raw.readFrame();
      assertEquals(FrameType.GOAWAY, goAway.type);
      assertEquals(StatusCode.BAD_REQUEST, GoAway.parseFrom(goAway.payload).getCode());
      assertEquals(
          "unexpected frame unknown type 0x7f from a client",
          GoAway.parseFrom(goAway.payload).getMessage());
      assertTrue(raw.closedByServer());
    }
  }

  /**
   * A stream's messages and end for no open stream (its call ended while they were on their way,
   * or never existed) are dropped; the connection goes on.
   */
  @Test
  void streamMessagesAndEndsForNoOpenStreamAreDropped() throws Exception {
    try (RawConnection raw = new RawConnection(rpcx.port()).handshake()) {
      raw.sendFrame(FrameType.STREAM_MESSAGE, new byte[] {8, 9, 18, 3, 10, 1, 120});
      raw.sendFrame(FrameType.STREAM_END, new byte[] {8, 10});
      raw.sendFrame(FrameType.PING, new byte[8]);
      assertEquals(FrameType.PONG, raw.readFrame().type);
    }
  }

  /** Credit and cancel for a stream that is not open (it ended meanwhile) are dropped. */
  @Test
  void creditAndCancelForNoOpenStreamAreIgnored() throws Exception {
    try (RawConnection raw = new RawConnection(rpcx.port()).handshake()) {
      raw.sendFrame(FrameType.STREAM_CREDIT, new byte[] {8, 9, 16, 1});
      raw.sendFrame(FrameType.STREAM_CANCEL, new byte[] {8, 9});
      raw.sendFrame(FrameType.PING, new byte[8]);
      assertEquals(FrameType.PONG, raw.readFrame().type);
    }
  }

  @Test
  void aReplyFrameSentToAServer() throws Exception {
    assertClosedAfter(raw -> send(raw, concat(header(4, FrameType.REPLY), new byte[] {8, 1})));
  }

  @Test
  void aPingWithoutItsEightBytes() throws Exception {
    assertClosedAfter(raw -> send(raw, concat(header(5, FrameType.PING), new byte[] {1, 2, 3})));
  }

  @Test
  void aTruncatedFrameFollowedByClose() throws Exception {
    try (RawConnection raw = new RawConnection(rpcx.port()).handshake()) {
      raw.send(concat(header(1000, FrameType.REQUEST), new byte[10]));
    }
  }

  @Test
  void aMalformedSchemaFrame() throws Exception {
    assertClosedAfter(raw -> send(raw, concat(header(5, FrameType.SCHEMA), new byte[] {(byte) 0xff, 1, 2})));
  }

  @Test
  void invalidProtobufWithoutARequestIdClosesTheConnection() throws Exception {
    assertClosedAfter(
        raw -> send(raw, concat(header(7, FrameType.REQUEST), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff})));
  }

  @Test
  void invalidProtobufAfterARequestIdIsAnsweredAsABadRequest() throws Exception {
    try (RawConnection raw = new RawConnection(rpcx.port()).handshake()) {
      byte[] request =
          RPCXRequest.newBuilder().setRequestId(42).setService("echo").setMethod("echo").build().toByteArray();
      byte[] broken = concat(request, new byte[] {0x22, 0x7f, 0x0a}); // an argument claiming 127 bytes
      raw.sendFrame(FrameType.REQUEST, broken);
      RPCXReply reply = RPCXReply.parseFrom(raw.readFrame().payload);
      assertEquals(42, reply.getRequestId());
      assertEquals(StatusCode.BAD_REQUEST, reply.getError().getCode());
      assertTrue(reply.getError().getMessage().startsWith("malformed request: "));
      // The connection stays usable: framing was intact.
      raw.sendFrame(FrameType.PING, new byte[8]);
      assertEquals(FrameType.PONG, raw.readFrame().type);
    }
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = new byte[first.length + second.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  // The client's side: a server that sends what no RPCX server would.

  /** A fake server that answers each request through {@code answer}. */
  private static final class FakeServer implements AutoCloseable {
    interface Answer {
      void reply(int requestId, String argument, DataOutputStream out) throws IOException;
    }

    private final ServerSocket socket;

    FakeServer(Answer answer) throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread thread =
          new Thread(
              () -> {
                try (Socket connection = socket.accept()) {
                  DataInputStream in = new DataInputStream(connection.getInputStream());
                  DataOutputStream out = new DataOutputStream(connection.getOutputStream());
                  in.readFully(new byte[Preface.LENGTH]);
                  out.write(Preface.bytes());
                  while (true) {
                    int length = in.readInt();
                    byte type = in.readByte();
                    in.readByte();
                    byte[] payload = new byte[length - 2];
                    in.readFully(payload);
                    if (type == FrameType.REQUEST) {
                      RPCXRequest request = RPCXRequest.parseFrom(payload);
                      String argument =
                          StringValue.parseFrom(request.getArguments(0).getValue()).getValue();
                      answer.reply(request.getRequestId(), argument, out);
                      out.flush();
                    }
                  }
                } catch (IOException e) {
                  // client gone
                }
              },
              "fake-server");
      thread.setDaemon(true);
      thread.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    static void frame(DataOutputStream out, byte type, byte[] payload) throws IOException {
      out.writeInt(payload.length + 2);
      out.writeByte(type);
      out.writeByte(0);
      out.write(payload);
    }

    static byte[] reply(int id, String value) {
      return RPCXReply.newBuilder()
          .setRequestId(id)
          .setValue(StringValue.of(value).toByteString())
          .build()
          .toByteArray();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void repliesWithUnknownOrDuplicateIdsNeverReachTheWrongCall() throws Exception {
    try (FakeServer server =
            new FakeServer(
                (id, argument, out) -> {
                  FakeServer.frame(out, FrameType.REPLY, FakeServer.reply(id + 1000, "stranger"));
                  FakeServer.frame(out, FrameType.REPLY, FakeServer.reply(id, argument));
                  FakeServer.frame(out, FrameType.REPLY, FakeServer.reply(id, "duplicate"));
                });
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      EchoService echo = client.create(EchoService.class);
      for (int i = 0; i < 50; i++) {
        assertEquals("call-" + i, echo.echo("call-" + i));
      }
    }
  }

  @Test
  void aMalformedReplyFailsTheCallsWithAClearError() throws Exception {
    try (FakeServer server =
            new FakeServer(
                (id, argument, out) ->
                    FakeServer.frame(out, FrameType.REPLY, new byte[] {(byte) 0xff, (byte) 0xff}));
        RpcxClient client =
            RpcxClient.builder().target("127.0.0.1", server.port()).defaultTimeout(Duration.ofSeconds(5)).build()) {
      RpcxException e = assertThrows(RpcxException.class, () -> client.create(EchoService.class).echo("x"));
      assertInstanceOf(InternalErrorException.class, e);
      assertTrue(e.getMessage().contains("malformed reply from 127.0.0.1:" + server.port()), e.getMessage());
    }
  }

  @Test
  void aReplyWhoseValueCannotBeDecodedFailsOnlyThatCall() throws Exception {
    try (FakeServer server =
            new FakeServer(
                (id, argument, out) -> {
                  byte[] value =
                      argument.equals("bad")
                          ? RPCXReply.newBuilder().setRequestId(id).setValue(ByteString.copyFrom(new byte[] {8, 1})).build().toByteArray()
                          : FakeServer.reply(id, argument);
                  FakeServer.frame(out, FrameType.REPLY, value);
                });
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      EchoService echo = client.create(EchoService.class);
      InternalErrorException e = assertThrows(InternalErrorException.class, () -> echo.echo("bad"));
      assertEquals(
          "cannot decode the result of echo/echo from 127.0.0.1:" + server.port()
              + ": field 1 holds wire type VARINT but string needs LEN",
          e.getMessage());
      assertEquals("good", echo.echo("good"));
    }
  }

  @Test
  void aStreamCancelFromAServerClosesThatConnection() throws Exception {
    try (FakeServer server =
            new FakeServer((id, argument, out) -> FakeServer.frame(out, FrameType.STREAM_CANCEL, new byte[] {8, 1}));
        RpcxClient client =
            RpcxClient.builder().target("127.0.0.1", server.port()).defaultTimeout(Duration.ofSeconds(5)).build()) {
      InternalErrorException e =
          assertThrows(InternalErrorException.class, () -> client.create(EchoService.class).echo("x"));
      assertEquals(
          "connection to 127.0.0.1:" + server.port() + " closed while echo/echo was in flight: the"
              + " server at 127.0.0.1:" + server.port() + " sent an unexpected frame STREAM_CANCEL",
          e.getMessage());
    }
  }

  /**
   * A server that streams what the client calls for one reply disagrees with it on the method (its
   * interface changed on one side): that call fails, and the connection's other calls go on.
   */
  @Test
  void aStreamAnsweringAUnaryCallFailsOnlyThatCall() throws Exception {
    try (FakeServer server =
            new FakeServer(
                (id, argument, out) ->
                    FakeServer.frame(
                        out,
                        argument.startsWith("stream") ? FrameType.STREAM_MESSAGE : FrameType.REPLY,
                        FakeServer.reply(id, argument)));
        RpcxClient client =
            RpcxClient.builder().target("127.0.0.1", server.port()).defaultTimeout(Duration.ofSeconds(5)).build()) {
      EchoService echo = client.create(EchoService.class);
      InternalErrorException e = assertThrows(InternalErrorException.class, () -> echo.echo("stream me"));
      assertEquals(
          "the server at 127.0.0.1:" + server.port() + " sent STREAM_MESSAGE for echo/echo, which"
              + " is not a stream",
          e.getMessage());
      assertEquals("still here", echo.echo("still here"));
      assertEquals(1, client.stats().openConnections(), "the connection was kept");
    }
  }

  @RPCXClient(name = "echo")
  interface EchoStream {
    Flow.Publisher<String> echo(String text);
  }

  /** docs/PROTOCOL.md, 5.3: a message beyond the window fails the stream INTERNAL and cancels it. */
  @Test
  void aServerSendingBeyondTheWindowFailsOnlyThatStream() throws Exception {
    try (FakeServer server =
            new FakeServer(
                (id, argument, out) -> {
                  if (argument.equals("flood")) {
                    for (int i = 0; i < 3; i++) {
                      FakeServer.frame(out, FrameType.STREAM_MESSAGE, FakeServer.reply(id, argument + i));
                    }
                  } else {
                    FakeServer.frame(out, FrameType.REPLY, FakeServer.reply(id, argument));
                  }
                });
        RpcxClient client = // a window of 2: the credit the request grants
            RpcxClient.builder().target("127.0.0.1", server.port()).maxStreamWindow(2).build()) {
      CompletableFuture<Throwable> ended = new CompletableFuture<>();
      client.create(EchoStream.class).echo("flood").subscribe(
          new Flow.Subscriber<String>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
              subscription.request(2);
            }

            @Override
            public void onNext(String item) {}

            @Override
            public void onError(Throwable failure) {
              ended.complete(failure);
            }

            @Override
            public void onComplete() {
              ended.complete(null);
            }
          });
      Throwable failure = ended.get(10, TimeUnit.SECONDS);
      assertInstanceOf(InternalErrorException.class, failure);
      assertEquals(
          "the server at 127.0.0.1:" + server.port() + " sent 3 messages on a window of 2 on the"
              + " stream of echo/echo",
          failure.getMessage());
      assertEquals("still here", client.create(EchoService.class).echo("still here"));
    }
  }

  @Test
  void anUnknownFrameFromAServerClosesThatConnection() throws Exception {
    try (FakeServer server =
            new FakeServer((id, argument, out) -> FakeServer.frame(out, (byte) 0x66, "??".getBytes(StandardCharsets.US_ASCII)));
        RpcxClient client =
            RpcxClient.builder().target("127.0.0.1", server.port()).defaultTimeout(Duration.ofSeconds(5)).build()) {
      InternalErrorException e =
          assertThrows(InternalErrorException.class, () -> client.create(EchoService.class).echo("x"));
      assertTrue(
          e.getMessage().contains("sent an unexpected frame unknown type 0x66"), e.getMessage());
    }
  }
}
