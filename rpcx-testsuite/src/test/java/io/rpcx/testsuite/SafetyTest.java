package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.proto.Argument;
import io.rpcx.core.internal.protocol.proto.RPCXReply;
import io.rpcx.core.internal.protocol.proto.RPCXRequest;
import io.rpcx.core.internal.protocol.proto.StatusCode;
import io.rpcx.examples.api.OrderInfo;
import io.rpcx.examples.api.OrderItem;
import io.rpcx.examples.api.OrderService;
import io.rpcx.examples.server.OrderServiceImpl;
import io.rpcx.testing.RpcxExtension;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nothing read from the wire decides what class is loaded or created: the decoder only builds the
 * types of registered signatures, and Java serialization is nowhere.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SafetyTest {
  private static final String CANARY = "io.rpcx.testsuite.Canary";

  @RegisterExtension
  static final RpcxExtension rpcx = RpcxExtension.withServices(new OrderServiceImpl());

  @Test
  void aClassNamedInEveryStringOfARequestIsNeverLoaded() throws Exception {
    OrderInfo order = new OrderInfo();
    order.setBillNumber(CANARY);
    order.setCustomer(CANARY);
    order.setRemark(CANARY);
    order.setTags(Set.of(CANARY));
    order.setAttributes(Map.of(CANARY, CANARY));
    order.setItems(List.of(new OrderItem(CANARY, CANARY, 1, BigDecimal.ONE)));
    assertEquals(order, rpcx.create(OrderService.class).loadOrder(order));
    assertEquals(CANARY, rpcx.create(OrderService.class).sendStr(CANARY));

    // The names and type descriptors of a hand-made request, too.
    try (RawConnection raw = new RawConnection(rpcx.port()).handshake()) {
      RPCXRequest request =
          RPCXRequest.newBuilder()
              .setRequestId(1)
              .setService(CANARY)
              .setMethod(CANARY)
              .addArguments(Argument.newBuilder().setType(CANARY).setValue(ByteString.copyFromUtf8(CANARY)))
              .putMetadata(CANARY, CANARY)
              .build();
      raw.sendFrame(FrameType.REQUEST, request.toByteArray());
      RPCXReply reply = RPCXReply.parseFrom(raw.readFrame().payload);
      assertEquals(StatusCode.NOT_FOUND, reply.getError().getCode());
      RPCXRequest wrongType =
          request.toBuilder().setRequestId(2).setService("orders").setMethod("loadOrder").build();
      raw.sendFrame(FrameType.REQUEST, wrongType.toByteArray());
      RPCXReply typeReply = RPCXReply.parseFrom(raw.readFrame().payload);
      assertEquals(StatusCode.BAD_REQUEST, typeReply.getError().getCode());
      assertEquals(
          "argument 0 (order) of orders/loadOrder: the client sent type '" + CANARY
              + "' but the server expects 'OrderInfo'",
          typeReply.getError().getMessage());
    }
    assertFalse(Canary.CanaryFlag.initialized, "the canary class was loaded");
  }

  @Test
  void aJavaSerializationStreamIsADecodeErrorNotAnObject() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(new ArrayList<>(List.of("payload")));
    }
    byte[] stream = bytes.toByteArray();
    assertEquals((byte) 0xAC, stream[0]);
    assertEquals((byte) 0xED, stream[1]);
    try (RawConnection raw = new RawConnection(rpcx.port()).handshake()) {
      RPCXRequest request =
          RPCXRequest.newBuilder()
              .setRequestId(11)
              .setService("orders")
              .setMethod("loadOrder")
              .addArguments(
                  Argument.newBuilder().setType("OrderInfo").setValue(ByteString.copyFrom(stream)))
              .build();
      raw.sendFrame(FrameType.REQUEST, request.toByteArray());
      RPCXReply reply = RPCXReply.parseFrom(raw.readFrame().payload);
      assertEquals(11, reply.getRequestId());
      assertEquals(StatusCode.BAD_REQUEST, reply.getError().getCode());
      assertTrue(
          reply.getError().getMessage().startsWith("cannot decode argument 0 (order) of orders/loadOrder: "),
          reply.getError().getMessage());
    }
    assertEquals("still serving", rpcx.create(OrderService.class).sendStr("still serving"));
  }
}
