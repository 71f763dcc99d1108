package io.rpcx.benchmarks.grpc;

import io.grpc.stub.StreamObserver;
import io.rpcx.benchmarks.api.BenchmarkServiceImpl;
import io.rpcx.benchmarks.grpc.proto.BenchGrpc;
import io.rpcx.benchmarks.grpc.proto.Blob;
import io.rpcx.benchmarks.grpc.proto.ChatMessage;
import io.rpcx.benchmarks.grpc.proto.FindReply;
import io.rpcx.benchmarks.grpc.proto.MessageId;
import io.rpcx.benchmarks.grpc.proto.Order;
import io.rpcx.benchmarks.grpc.proto.OrderList;
import io.rpcx.benchmarks.grpc.proto.Outcome;
import io.rpcx.benchmarks.grpc.proto.Text;
import io.rpcx.benchmarks.grpc.proto.UpdateRequest;
import io.rpcx.benchmarks.model.Message;

/**
 * The gRPC server side of the benchmark service. Echo calls reply with the request message itself,
 * which gRPC has fully parsed and serializes again, as a gRPC service written against its generated
 * messages would. CRUD calls convert the small message to the POJO and go through the shared {@link
 * BenchmarkServiceImpl}, so the store behaves the same for every system.
 */
final class GrpcBenchService extends BenchGrpc.BenchImplBase {
  private static final Outcome OK = Outcome.newBuilder().setOk(true).build();
  private static final Outcome NOT_OK = Outcome.newBuilder().setOk(false).build();
  private static final FindReply NOT_FOUND = FindReply.newBuilder().setFound(false).build();

  private final BenchmarkServiceImpl logic = new BenchmarkServiceImpl();

  @Override
  public void echo(Text request, StreamObserver<Text> reply) {
    reply.onNext(request);
    reply.onCompleted();
  }

  @Override
  public void loadOrder(Order request, StreamObserver<Order> reply) {
    reply.onNext(request);
    reply.onCompleted();
  }

  @Override
  public void loadOrders(OrderList request, StreamObserver<OrderList> reply) {
    reply.onNext(request);
    reply.onCompleted();
  }

  @Override
  public void echoBytes(Blob request, StreamObserver<Blob> reply) {
    reply.onNext(request);
    reply.onCompleted();
  }

  @Override
  public void create(ChatMessage request, StreamObserver<ChatMessage> reply) {
    reply.onNext(ProtoMapper.toProto(logic.create(ProtoMapper.fromProto(request))));
    reply.onCompleted();
  }

  @Override
  public void update(UpdateRequest request, StreamObserver<Outcome> reply) {
    boolean ok = logic.update(request.getId(), ProtoMapper.fromProto(request.getMessage()));
    reply.onNext(ok ? OK : NOT_OK);
    reply.onCompleted();
  }

  @Override
  public void findById(MessageId request, StreamObserver<FindReply> reply) {
    Message found = logic.findById(request.getId());
    reply.onNext(
        found == null
            ? NOT_FOUND
            : FindReply.newBuilder().setFound(true).setMessage(ProtoMapper.toProto(found)).build());
    reply.onCompleted();
  }

  @Override
  public void remove(MessageId request, StreamObserver<Outcome> reply) {
    reply.onNext(logic.remove(request.getId()) ? OK : NOT_OK);
    reply.onCompleted();
  }
}
