package io.rpcx.benchmarks.grpc;

import bench.BenchGrpc;
import bench.BenchOuterClass.CreateReply;
import bench.BenchOuterClass.CreateRequest;
import bench.BenchOuterClass.EchoBytesReply;
import bench.BenchOuterClass.EchoBytesRequest;
import bench.BenchOuterClass.EchoReply;
import bench.BenchOuterClass.EchoRequest;
import bench.BenchOuterClass.FindByIdReply;
import bench.BenchOuterClass.FindByIdRequest;
import bench.BenchOuterClass.ListOfOrderInfo;
import bench.BenchOuterClass.LoadOrderReply;
import bench.BenchOuterClass.LoadOrderRequest;
import bench.BenchOuterClass.LoadOrdersReply;
import bench.BenchOuterClass.LoadOrdersRequest;
import bench.BenchOuterClass.OrderInfo;
import bench.BenchOuterClass.RemoveRequest;
import bench.BenchOuterClass.UpdateRequest;
import com.google.protobuf.ByteString;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Payloads;
import java.util.List;

/**
 * The workloads as a gRPC user of RPCX's exported schema makes them with the generated messages,
 * as {@link NativeCalls} does with the hand-written schema: each request is built once, when a
 * thread's call is made, and every call passes it to the blocking stub and checks the reply on the
 * messages' own accessors (size, id, flag), with no conversion from or to POJOs. Strings are read
 * back as {@code String}, bytes stay a {@link ByteString}.
 */
final class ExportedCalls {
  private ExportedCalls() {}

  /** A new operation of {@code workload} on {@code stub}, its request built here, once. */
  static Workload.Call newCall(BenchGrpc.BenchBlockingStub stub, Workload workload) {
    Object p = workload.payload();
    switch (workload) {
      case ECHO_16B:
      case STRING_1K:
      case STRING_100K:
      case STRING_1M:
        String text = (String) p;
        EchoRequest echo = EchoRequest.newBuilder().setText(text).build();
        return () -> {
          EchoReply reply = stub.echo(echo);
          Workload.expectLength(reply.getValue().length(), text.length());
          return reply;
        };
      case BYTES_1M:
        EchoBytesRequest bytes =
            EchoBytesRequest.newBuilder().setData(ByteString.copyFrom((byte[]) p)).build();
        int size = bytes.getData().size();
        return () -> {
          EchoBytesReply reply = stub.echoBytes(bytes);
          Workload.expectLength(reply.getValue().size(), size);
          return reply;
        };
      case ORDER:
        OrderInfo order = ExportedMapper.toExported((io.rpcx.benchmarks.model.OrderInfo) p);
        LoadOrderRequest loadOrder = LoadOrderRequest.newBuilder().setOrder(order).build();
        return () -> {
          LoadOrderReply reply = stub.loadOrder(loadOrder);
          if (reply.getValue().getOrderId() != order.getOrderId()
              || reply.getValue().getItems().getValuesCount()
                  != order.getItems().getValuesCount()) {
            throw new IllegalStateException("loadOrder returned a different order: " + reply);
          }
          return reply;
        };
      case ORDERS_100:
        @SuppressWarnings("unchecked")
        ListOfOrderInfo orders =
            ExportedMapper.toExported((List<io.rpcx.benchmarks.model.OrderInfo>) p);
        LoadOrdersRequest loadOrders = LoadOrdersRequest.newBuilder().setOrders(orders).build();
        return () -> {
          LoadOrdersReply reply = stub.loadOrders(loadOrders);
          Workload.expectLength(reply.getValue().getValuesCount(), orders.getValuesCount());
          return reply;
        };
      case CRUD:
        return new CrudCycle(stub, (String) p);
      default:
        throw new AssertionError(workload);
    }
  }

  /** {@link Workload#CRUD}'s create, update, findById, remove cycle, in the export's messages. */
  private static final class CrudCycle implements Workload.Call {
    private final BenchGrpc.BenchBlockingStub stub;
    private final CreateRequest create;
    private final UpdateRequest.Builder update;
    private int step;
    private long id;

    CrudCycle(BenchGrpc.BenchBlockingStub stub, String text) {
      this.stub = stub;
      this.create =
          CreateRequest.newBuilder()
              .setMessage(ExportedMapper.toExported(Payloads.message(text)))
              .build();
      this.update =
          UpdateRequest.newBuilder()
              .setMessage(ExportedMapper.toExported(Payloads.message(text + " (edited)")));
    }

    @Override
    public Object invoke() {
      int current = step;
      step = (step + 1) & 3;
      switch (current) {
        case 0:
          CreateReply created = stub.create(create);
          if (created.getValue().getId() == 0) {
            throw new IllegalStateException("create returned no id: " + created);
          }
          id = created.getValue().getId();
          return created;
        case 1:
          return expectTrue(stub.update(update.setId(id).build()).getValue(), "update");
        case 2:
          FindByIdReply found = stub.findById(FindByIdRequest.newBuilder().setId(id).build());
          if (!found.hasValue() || found.getValue().getId() != id) {
            throw new IllegalStateException("findById(" + id + ") returned " + found);
          }
          return found;
        default:
          return expectTrue(
              stub.remove(RemoveRequest.newBuilder().setId(id).build()).getValue(), "remove");
      }
    }

    private Boolean expectTrue(boolean ok, String call) {
      if (!ok) {
        throw new IllegalStateException(call + "(" + id + ") returned false");
      }
      return Boolean.TRUE;
    }
  }
}
