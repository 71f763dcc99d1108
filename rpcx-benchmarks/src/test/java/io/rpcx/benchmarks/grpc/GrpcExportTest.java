package io.rpcx.benchmarks.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.BenchGrpc;
import bench.BenchOuterClass.CreateReply;
import bench.BenchOuterClass.EchoBytesReply;
import bench.BenchOuterClass.EchoReply;
import bench.BenchOuterClass.EchoRequest;
import bench.BenchOuterClass.FindByIdReply;
import bench.BenchOuterClass.LoadOrderReply;
import bench.BenchOuterClass.LoadOrdersReply;
import io.grpc.ManagedChannel;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.Deployment;
import io.rpcx.benchmarks.api.Systems;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The grpc-java client on the stubs generated from RPCX's export makes every workload against
 * grpc-java's server of that service ({@code grpc-exported}) and against RPCX's gRPC side ({@code
 * grpc-on-rpcx}), with the generated messages in and out; both servers answer every request with
 * the same message, and a request without its value gets a reply without one from both.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GrpcExportTest {

  @ParameterizedTest
  @ValueSource(strings = {"grpc-exported", "grpc-on-rpcx"})
  void everyWorkloadRoundTripsAsMessages(String system) throws Exception {
    try (Deployment d = Systems.start(system)) {
      for (Workload workload :
          List.of(
              Workload.ECHO_16B,
              Workload.STRING_1K,
              Workload.STRING_100K,
              Workload.STRING_1M)) {
        EchoReply reply = assertInstanceOf(EchoReply.class, d.client().newCall(workload).invoke());
        assertEquals(workload.payload(), reply.getValue(), workload.id());
      }

      EchoBytesReply bytes =
          assertInstanceOf(EchoBytesReply.class, d.client().newCall(Workload.BYTES_1M).invoke());
      assertArrayEquals((byte[]) Workload.BYTES_1M.payload(), bytes.getValue().toByteArray());

      LoadOrderReply order =
          assertInstanceOf(LoadOrderReply.class, d.client().newCall(Workload.ORDER).invoke());
      assertEquals(Workload.ORDER.payload(), ExportedMapper.fromExported(order.getValue()));

      LoadOrdersReply orders =
          assertInstanceOf(LoadOrdersReply.class, d.client().newCall(Workload.ORDERS_100).invoke());
      @SuppressWarnings("unchecked")
      List<OrderInfo> sent = (List<OrderInfo>) Workload.ORDERS_100.payload();
      assertEquals(sent, ExportedMapper.fromExported(orders.getValue()));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"grpc-exported", "grpc-on-rpcx"})
  void crudCycleCreatesUpdatesFindsAndRemoves(String system) throws Exception {
    try (Deployment d = Systems.start(system)) {
      Workload.Call crud = d.client().newCall(Workload.CRUD);
      for (int cycle = 0; cycle < 3; cycle++) {
        CreateReply created = assertInstanceOf(CreateReply.class, crud.invoke());
        assertEquals(Workload.CRUD.payload(), created.getValue().getText());
        assertEquals(Boolean.TRUE, crud.invoke());
        FindByIdReply found = assertInstanceOf(FindByIdReply.class, crud.invoke());
        assertEquals(created.getValue().getId(), found.getValue().getId());
        assertEquals(Workload.CRUD.payload() + " (edited)", found.getValue().getText());
        assertEquals(Boolean.TRUE, crud.invoke());
        assertEquals(null, d.client().findById(created.getValue().getId()));
      }
    }
  }

  @Test
  void bothServersAnswerWithTheSameMessages() throws Exception {
    try (Deployment grpcJava = Systems.start("grpc-exported");
        Deployment rpcx = Systems.start("grpc-on-rpcx")) {
      for (Workload workload :
          List.of(Workload.ECHO_16B, Workload.BYTES_1M, Workload.ORDER, Workload.ORDERS_100)) {
        assertEquals(
            grpcJava.client().newCall(workload).invoke(),
            rpcx.client().newCall(workload).invoke(),
            workload.id());
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"grpc-exported", "grpc-on-rpcx"})
  void aRequestWithoutItsValueGetsAReplyWithoutOne(String system) throws Exception {
    BenchmarkServer server = Systems.get(system).startServer();
    ManagedChannel channel = GrpcSystem.channel(server.port());
    try {
      EchoReply reply =
          BenchGrpc.newBlockingStub(channel).echo(EchoRequest.getDefaultInstance());
      assertTrue(!reply.hasValue(), () -> "echo(null) returned " + reply);
      EchoReply empty =
          BenchGrpc.newBlockingStub(channel).echo(EchoRequest.newBuilder().setText("").build());
      assertTrue(empty.hasValue(), "echo(\"\") must return \"\", not null");
    } finally {
      GrpcSystem.shutdown(channel);
      server.close();
    }
  }
}
