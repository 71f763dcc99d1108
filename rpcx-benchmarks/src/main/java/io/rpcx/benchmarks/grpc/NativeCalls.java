package io.rpcx.benchmarks.grpc;

import com.google.protobuf.ByteString;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.grpc.proto.BenchGrpc;
import io.rpcx.benchmarks.grpc.proto.Blob;
import io.rpcx.benchmarks.grpc.proto.ChatMessage;
import io.rpcx.benchmarks.grpc.proto.FindReply;
import io.rpcx.benchmarks.grpc.proto.MessageId;
import io.rpcx.benchmarks.grpc.proto.Order;
import io.rpcx.benchmarks.grpc.proto.OrderList;
import io.rpcx.benchmarks.grpc.proto.Text;
import io.rpcx.benchmarks.grpc.proto.UpdateRequest;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.benchmarks.model.Payloads;
import java.util.List;

/**
 * The workloads as a gRPC user whose model is the generated messages makes them ({@code
 * grpc-native}): each payload is built as a message once, when a thread's call is made, and every
 * call passes that message to the blocking stub and gets a message back, with no conversion from
 * or to POJOs. The replies are checked as {@link Workload} checks the POJOs (size, id, flag), on
 * the messages' own accessors. Strings are read back as {@code String}, bytes stay a {@link
 * ByteString}, as such a user holds them.
 */
final class NativeCalls {
  private NativeCalls() {}

  /** A new operation of {@code workload} on {@code stub}, its payload converted here, once. */
  static Workload.Call newCall(BenchGrpc.BenchBlockingStub stub, Workload workload) {
    Object p = workload.payload();
    switch (workload) {
      case ECHO_16B:
      case STRING_1K:
      case STRING_100K:
      case STRING_1M:
        String text = (String) p;
        Text textRequest = Text.newBuilder().setValue(text).build();
        return () -> {
          Text reply = stub.echo(textRequest);
          Workload.expectLength(reply.getValue().length(), text.length());
          return reply;
        };
      case BYTES_1M:
        Blob blobRequest = Blob.newBuilder().setValue(ByteString.copyFrom((byte[]) p)).build();
        int size = blobRequest.getValue().size();
        return () -> {
          Blob reply = stub.echoBytes(blobRequest);
          Workload.expectLength(reply.getValue().size(), size);
          return reply;
        };
      case ORDER:
        Order order = ProtoMapper.toProto((OrderInfo) p);
        return () -> {
          Order reply = stub.loadOrder(order);
          if (reply.getOrderId() != order.getOrderId()
              || reply.getItemsCount() != order.getItemsCount()) {
            throw new IllegalStateException("loadOrder returned a different order: " + reply);
          }
          return reply;
        };
      case ORDERS_100:
        @SuppressWarnings("unchecked")
        OrderList orders = ProtoMapper.toProto((List<OrderInfo>) p);
        return () -> {
          OrderList reply = stub.loadOrders(orders);
          Workload.expectLength(reply.getOrdersCount(), orders.getOrdersCount());
          return reply;
        };
      case CRUD:
        return new CrudCycle(stub, (String) p);
      default:
        throw new AssertionError(workload);
    }
  }

  /** {@link Workload#CRUD}'s create, update, findById, remove cycle, in messages. */
  private static final class CrudCycle implements Workload.Call {
    private final BenchGrpc.BenchBlockingStub stub;
    private final ChatMessage fresh;
    private final ChatMessage edited;
    private int step;
    private long id;

    CrudCycle(BenchGrpc.BenchBlockingStub stub, String text) {
      this.stub = stub;
      this.fresh = ProtoMapper.toProto(Payloads.message(text));
      this.edited = ProtoMapper.toProto(Payloads.message(text + " (edited)"));
    }

    @Override
    public Object invoke() {
      int current = step;
      step = (step + 1) & 3;
      switch (current) {
        case 0:
          ChatMessage created = stub.create(fresh);
          if (created.getId() == 0) {
            throw new IllegalStateException("create returned no id: " + created);
          }
          id = created.getId();
          return created;
        case 1:
          return expectOk(
              stub.update(UpdateRequest.newBuilder().setId(id).setMessage(edited).build()).getOk(),
              "update");
        case 2:
          FindReply found = stub.findById(MessageId.newBuilder().setId(id).build());
          if (!found.getFound() || found.getMessage().getId() != id) {
            throw new IllegalStateException("findById(" + id + ") returned " + found);
          }
          return found;
        default:
          return expectOk(stub.remove(MessageId.newBuilder().setId(id).build()).getOk(), "remove");
      }
    }

    private Boolean expectOk(boolean ok, String call) {
      if (!ok) {
        throw new IllegalStateException(call + "(" + id + ") returned false");
      }
      return Boolean.TRUE;
    }
  }
}
