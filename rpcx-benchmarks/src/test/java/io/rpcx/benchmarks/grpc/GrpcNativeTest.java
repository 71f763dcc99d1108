package io.rpcx.benchmarks.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.benchmarks.api.Deployment;
import io.rpcx.benchmarks.api.Systems;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.grpc.proto.Blob;
import io.rpcx.benchmarks.grpc.proto.ChatMessage;
import io.rpcx.benchmarks.grpc.proto.FindReply;
import io.rpcx.benchmarks.grpc.proto.Order;
import io.rpcx.benchmarks.grpc.proto.OrderList;
import io.rpcx.benchmarks.grpc.proto.Text;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code grpc-native} makes every workload {@code grpc} makes, with generated messages in and out:
 * each reply is a message equal to what was sent (the orders equal the workload's POJOs once
 * converted back), and the CRUD cycle keeps the store's semantics.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GrpcNativeTest {

  @Test
  void supportsEveryWorkloadGrpcSupports() {
    for (Workload workload : Workload.values()) {
      assertEquals(
          Systems.get("grpc").supports(workload),
          Systems.get("grpc-native").supports(workload),
          workload.id());
    }
  }

  @Test
  void everyWorkloadRoundTripsAsMessages() throws Exception {
    try (Deployment d = Systems.start("grpc-native")) {
      for (Workload workload :
          List.of(
              Workload.ECHO_16B,
              Workload.STRING_1K,
              Workload.STRING_100K,
              Workload.STRING_1M)) {
        Text reply = assertInstanceOf(Text.class, d.client().newCall(workload).invoke());
        assertEquals(workload.payload(), reply.getValue(), workload.id());
      }

      Blob blob = assertInstanceOf(Blob.class, d.client().newCall(Workload.BYTES_1M).invoke());
      assertArrayEquals((byte[]) Workload.BYTES_1M.payload(), blob.getValue().toByteArray());

      Order order = assertInstanceOf(Order.class, d.client().newCall(Workload.ORDER).invoke());
      assertEquals(Workload.ORDER.payload(), ProtoMapper.fromProto(order));

      OrderList orders =
          assertInstanceOf(OrderList.class, d.client().newCall(Workload.ORDERS_100).invoke());
      @SuppressWarnings("unchecked")
      List<OrderInfo> sent = (List<OrderInfo>) Workload.ORDERS_100.payload();
      assertEquals(sent, ProtoMapper.fromProto(orders));
    }
  }

  @Test
  void crudCycleCreatesUpdatesFindsAndRemoves() throws Exception {
    try (Deployment d = Systems.start("grpc-native")) {
      Workload.Call crud = d.client().newCall(Workload.CRUD);
      for (int cycle = 0; cycle < 3; cycle++) {
        ChatMessage created = assertInstanceOf(ChatMessage.class, crud.invoke());
        assertEquals(Workload.CRUD.payload(), created.getText());
        assertEquals(Boolean.TRUE, crud.invoke());
        FindReply found = assertInstanceOf(FindReply.class, crud.invoke());
        assertTrue(found.getFound());
        assertEquals(created.getId(), found.getMessage().getId());
        assertEquals(Workload.CRUD.payload() + " (edited)", found.getMessage().getText());
        assertEquals(Boolean.TRUE, crud.invoke());
        assertEquals(null, d.client().findById(created.getId()));
      }
    }
  }
}
