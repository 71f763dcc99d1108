package io.rpcx.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import echo.EchoOuterClass;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.internal.protocol.proto.Argument;
import io.rpcx.core.internal.protocol.proto.RPCXReply;
import io.rpcx.core.internal.protocol.proto.RPCXRequest;
import io.rpcx.core.internal.protocol.proto.StatusCode;
import io.rpcx.core.internal.protocol.proto.StreamCredit;
import io.rpcx.core.internal.protocol.proto.StreamEnd;
import io.rpcx.core.internal.protocol.proto.StreamMessage;
import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.server.RpcxServer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import orders.OrdersOuterClass;

/**
 * The build exports the example services' schema and compiles it with protoc (rpcx-examples'
 * pom.xml). Here a client that knows nothing of RPCX's Java classes, only protoc's output for the
 * exported files and for rpcx/v1/rpcx.proto, calls the example server over a plain socket, as a
 * client in another language would (docs/PROTOCOL.md, section 4).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExportedSchemaTest {
  private static final int REQUEST = 0x01;
  private static final int REPLY = 0x02;
  private static final int SCHEMA = 0x06;
  private static final int STREAM_MESSAGE = 0x07;
  private static final int STREAM_CREDIT = 0x08;
  private static final int STREAM_END = 0x09;

  private RpcxServer server;

  @BeforeEach
  void start() {
    server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .scan("io.rpcx.examples.server")
            .reflection(true)
            .build()
            .start();
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  @Test
  void anOrderBuiltWithProtocsClassesMakesTheRoundTripUnchanged() throws IOException {
    OrdersOuterClass.OrderInfo order =
        OrdersOuterClass.OrderInfo.newBuilder()
            .setBillNumber("BN-2026-000042")
            .setOrderId(42)
            .setCustomer("ada")
            .setCreatedAt(Timestamp.newBuilder().setSeconds(1_764_000_000L).setNanos(7))
            .setStatus("PAID")
            .setTotalAmount("25.50")
            .setPaid(true)
            .setItems(
                OrdersOuterClass.ListOfOrderItem.newBuilder()
                    .addValues(
                        OrdersOuterClass.OrderItem.newBuilder()
                            .setSku("SKU-1")
                            .setName("pen")
                            .setQuantity(3)
                            .setUnitPrice("8.50")))
            .setTags(OrdersOuterClass.ListOfString.newBuilder().addValues("gift"))
            .setAttributes(OrdersOuterClass.MapOfStringToString.newBuilder().putEntries("channel", "web"))
            .build();
    OrdersOuterClass.LoadOrderRequest.OrderArgument argument =
        OrdersOuterClass.LoadOrderRequest.OrderArgument.newBuilder().setValue(order).build();

    try (RawConnection connection = new RawConnection(server.port())) {
      RPCXReply reply = connection.call("orders", "loadOrder", Argument.newBuilder().setType("OrderInfo").setValue(argument.toByteString()));
      assertFalse(reply.hasError(), () -> reply.getError().toString());
      assertEquals(order, OrdersOuterClass.LoadOrderReply.parseFrom(reply.getValue()).getValue());
    }
  }

  @Test
  void aDeclaredFailureArrivesAsTheErrorTheExportNames() throws IOException {
    OrdersOuterClass.FindOrderRequest.OrderIdArgument argument =
        OrdersOuterClass.FindOrderRequest.OrderIdArgument.newBuilder().setValue(-1).build();
    try (RawConnection connection = new RawConnection(server.port())) {
      RPCXReply reply = connection.call("orders", "findOrder", Argument.newBuilder().setType("int64").setValue(argument.toByteString()));
      assertEquals(StatusCode.REMOTE_FAILURE, reply.getError().getCode());
      assertEquals("io.rpcx.examples.api.OrderNotFoundException", reply.getError().getExceptionClass());
    }
  }

  @Test
  void aStringEchoesThroughTheExportedEchoMessages() throws IOException {
    EchoOuterClass.EchoRequest.TextArgument argument = EchoOuterClass.EchoRequest.TextArgument.newBuilder().setValue("héllo").build();
    try (RawConnection connection = new RawConnection(server.port())) {
      RPCXReply reply = connection.call("echo", "echo", Argument.newBuilder().setType("string").setValue(argument.toByteString()));
      assertEquals("héllo", EchoOuterClass.EchoReply.parseFrom(reply.getValue()).getValue());
    }
  }

  /**
   * The exported scalars are proto3 {@code optional}: protoc's classes write 0 and "" when they are
   * set, so they arrive as themselves, not as the null an unset field is.
   */
  @Test
  void zeroAndTheEmptyStringTravelAsThemselvesNotAsNull() throws IOException {
    OrdersOuterClass.FindOrderRequest.OrderIdArgument zero =
        OrdersOuterClass.FindOrderRequest.OrderIdArgument.newBuilder().setValue(0).build();
    EchoOuterClass.EchoRequest.TextArgument empty = EchoOuterClass.EchoRequest.TextArgument.newBuilder().setValue("").build();
    EchoOuterClass.EchoRequest.TextArgument unset = EchoOuterClass.EchoRequest.TextArgument.getDefaultInstance();
    try (RawConnection connection = new RawConnection(server.port())) {
      RPCXReply found =
          connection.call("orders", "findOrder", Argument.newBuilder().setType("int64").setValue(zero.toByteString()));
      assertEquals(
          1_000_000_000L, OrdersOuterClass.FindOrderReply.parseFrom(found.getValue()).getValue().getOrderId(),
          "order 0, not BAD_REQUEST: " + found);

      EchoOuterClass.EchoReply echoed =
          EchoOuterClass.EchoReply.parseFrom(
              connection.call("echo", "echo", Argument.newBuilder().setType("string").setValue(empty.toByteString()))
                  .getValue());
      assertTrue(echoed.hasValue());
      assertEquals("", echoed.getValue());

      EchoOuterClass.EchoReply nothing =
          EchoOuterClass.EchoReply.parseFrom(
              connection.call("echo", "echo", Argument.newBuilder().setType("string").setValue(unset.toByteString()))
                  .getValue());
      assertFalse(nothing.hasValue(), "an unset field is null, echoed as null");
    }
  }

  /** docs/PROTOCOL.md, 5.6: a server stream paced by the client's credit, with protoc's classes. */
  @Test
  void aServerStreamComesAsCreditAllowsThenEnds() throws IOException {
    OrdersOuterClass.StreamOrdersRequest.CountArgument argument =
        OrdersOuterClass.StreamOrdersRequest.CountArgument.newBuilder().setValue(3).build();
    try (RawConnection connection = new RawConnection(server.port())) {
      connection.send(
          REQUEST,
          RPCXRequest.newBuilder()
              .setRequestId(1)
              .setService("orders")
              .setMethod("streamOrders")
              .addArguments(Argument.newBuilder().setType("int32").setValue(argument.toByteString()))
              .setInitialCredit(2)
              .build()
              .toByteArray());
      for (int i = 0; i < 2; i++) {
        StreamMessage message = StreamMessage.parseFrom(connection.next(STREAM_MESSAGE));
        assertEquals(1, message.getStreamId());
        assertEquals(1_000_000_000L + i, OrdersOuterClass.StreamOrdersReply.parseFrom(message.getValue()).getValue().getOrderId());
      }
      // The window is used up: the third order comes only after more credit.
      connection.send(STREAM_CREDIT, StreamCredit.newBuilder().setStreamId(1).setMessages(1).build().toByteArray());
      StreamMessage third = StreamMessage.parseFrom(connection.next(STREAM_MESSAGE));
      assertEquals(1_000_000_002L, OrdersOuterClass.StreamOrdersReply.parseFrom(third.getValue()).getValue().getOrderId());
      StreamEnd end = StreamEnd.parseFrom(connection.next(STREAM_END));
      assertEquals(1, end.getStreamId());
      assertFalse(end.hasError());
    }
  }

  @Test
  void theServersReflectionGivesTheFilesTheBuildExported() throws IOException {
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      ReflectionService reflection = client.create(ReflectionService.class);
      Path exported = Path.of("target", "exported-proto");
      for (String service : new String[] {"chat", "echo", "files", "infos", "messages", "orders"}) {
        // The comments may differ: the build exported the client interfaces, whose @RPCXClient
        // sets a timeout that the server's implementation classes do not.
        assertEquals(
            withoutComments(Files.readString(exported.resolve(service + ".proto"))),
            withoutComments(reflection.protoFiles(service).get(service + ".proto")),
            service);
        assertArrayEquals(Files.readAllBytes(exported.resolve(service + ".pb")), reflection.fileDescriptorSet(service), service);
      }
    }
  }

  private static String withoutComments(String proto) {
    return proto.replaceAll("(?m)^ *//.*\n", "");
  }

  /** A connection that speaks the protocol from its specification and protoc's classes alone. */
  private static final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private int lastRequestId;

    RawConnection(int port) throws IOException {
      socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(10_000);
      in = new DataInputStream(socket.getInputStream());
      out = new DataOutputStream(socket.getOutputStream());
      out.write("RPCX".getBytes(StandardCharsets.US_ASCII));
      out.write(new byte[] {0, 1, 0, 0});
      byte[] preface = new byte[8];
      in.readFully(preface);
      assertArrayEquals(new byte[] {'R', 'P', 'C', 'X', 0, 1, 0, 0}, preface);
    }

    void send(int type, byte[] payload) throws IOException {
      out.writeInt(payload.length + 2);
      out.writeByte(type);
      out.writeByte(0);
      out.write(payload);
      out.flush();
    }

    /** The payload of the next frame of {@code type}, skipping SCHEMA frames. */
    byte[] next(int type) throws IOException {
      while (true) {
        int length = in.readInt();
        int actual = in.readUnsignedByte();
        in.readUnsignedByte();
        byte[] body = new byte[length - 2];
        in.readFully(body);
        if (actual == type) {
          return body;
        }
        assertEquals(SCHEMA, actual, "unexpected frame type");
      }
    }

    RPCXReply call(String service, String method, Argument.Builder... arguments) throws IOException {
      RPCXRequest.Builder request =
          RPCXRequest.newBuilder()
              .setRequestId(++lastRequestId)
              .setService(service)
              .setMethod(method)
              .setTimeoutMillis(5_000);
      for (Argument.Builder argument : arguments) {
        request.addArguments(argument);
      }
      byte[] payload = request.build().toByteArray();
      out.writeInt(payload.length + 2);
      out.writeByte(REQUEST);
      out.writeByte(0);
      out.write(payload);
      out.flush();
      while (true) {
        int length = in.readInt();
        int type = in.readUnsignedByte();
        in.readUnsignedByte();
        byte[] body = new byte[length - 2];
        in.readFully(body);
        if (type == REPLY) {
          RPCXReply reply = RPCXReply.parseFrom(ByteString.copyFrom(body));
          assertEquals(lastRequestId, reply.getRequestId());
          return reply;
        }
        // The server announces its numbering in SCHEMA frames; it is the exported one, so a
        // client that reads with the exported schema of this server may skip them.
        assertEquals(SCHEMA, type, "unexpected frame type");
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
