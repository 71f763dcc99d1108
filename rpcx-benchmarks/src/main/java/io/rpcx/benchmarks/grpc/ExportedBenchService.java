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
import bench.BenchOuterClass.LoadOrderReply;
import bench.BenchOuterClass.LoadOrderRequest;
import bench.BenchOuterClass.LoadOrdersReply;
import bench.BenchOuterClass.LoadOrdersRequest;
import bench.BenchOuterClass.RemoveReply;
import bench.BenchOuterClass.RemoveRequest;
import bench.BenchOuterClass.UpdateReply;
import bench.BenchOuterClass.UpdateRequest;
import io.grpc.stub.StreamObserver;
import io.rpcx.benchmarks.api.BenchmarkServiceImpl;
import io.rpcx.benchmarks.model.Message;

/**
 * grpc-java's server of the benchmark service as RPCX exports it ({@code bench.Bench}, generated
 * from the export by the build): what a team that implements an exported RPCX service in
 * grpc-java writes, and what {@code grpc-exported} serves. As {@link GrpcBenchService} does for
 * the hand-written schema, echoes answer with what was parsed, never converted to POJOs: the
 * export's replies are messages of their own, so the request's value (the parsed string, {@code
 * OrderInfo} or list message itself) is set into the reply. CRUD calls convert the small message
 * and go through the shared {@link BenchmarkServiceImpl}. A request without its value (null on
 * RPCX's side) gets a reply without one, as RPCX answers.
 */
final class ExportedBenchService extends BenchGrpc.BenchImplBase {
  private static final EchoReply NULL_TEXT = EchoReply.getDefaultInstance();
  private static final UpdateReply UPDATED = UpdateReply.newBuilder().setValue(true).build();
  private static final UpdateReply NOT_UPDATED = UpdateReply.newBuilder().setValue(false).build();
  private static final RemoveReply REMOVED = RemoveReply.newBuilder().setValue(true).build();
  private static final RemoveReply NOT_REMOVED = RemoveReply.newBuilder().setValue(false).build();
  private static final FindByIdReply NOT_FOUND = FindByIdReply.getDefaultInstance();

  private final BenchmarkServiceImpl logic = new BenchmarkServiceImpl();

  @Override
  public void echo(EchoRequest request, StreamObserver<EchoReply> reply) {
    reply.onNext(
        request.hasText() ? EchoReply.newBuilder().setValue(request.getText()).build() : NULL_TEXT);
    reply.onCompleted();
  }

  @Override
  public void loadOrder(LoadOrderRequest request, StreamObserver<LoadOrderReply> reply) {
    LoadOrderReply.Builder answer = LoadOrderReply.newBuilder();
    if (request.hasOrder()) {
      answer.setValue(request.getOrder());
    }
    reply.onNext(answer.build());
    reply.onCompleted();
  }

  @Override
  public void loadOrders(LoadOrdersRequest request, StreamObserver<LoadOrdersReply> reply) {
    LoadOrdersReply.Builder answer = LoadOrdersReply.newBuilder();
    if (request.hasOrders()) {
      answer.setValue(request.getOrders());
    }
    reply.onNext(answer.build());
    reply.onCompleted();
  }

  @Override
  public void echoBytes(EchoBytesRequest request, StreamObserver<EchoBytesReply> reply) {
    EchoBytesReply.Builder answer = EchoBytesReply.newBuilder();
    if (request.hasData()) {
      answer.setValue(request.getData());
    }
    reply.onNext(answer.build());
    reply.onCompleted();
  }

  @Override
  public void create(CreateRequest request, StreamObserver<CreateReply> reply) {
    Message created = logic.create(ExportedMapper.fromExported(request.getMessage()));
    reply.onNext(CreateReply.newBuilder().setValue(ExportedMapper.toExported(created)).build());
    reply.onCompleted();
  }

  @Override
  public void update(UpdateRequest request, StreamObserver<UpdateReply> reply) {
    boolean ok = logic.update(request.getId(), ExportedMapper.fromExported(request.getMessage()));
    reply.onNext(ok ? UPDATED : NOT_UPDATED);
    reply.onCompleted();
  }

  @Override
  public void findById(FindByIdRequest request, StreamObserver<FindByIdReply> reply) {
    Message found = logic.findById(request.getId());
    reply.onNext(
        found == null
            ? NOT_FOUND
            : FindByIdReply.newBuilder().setValue(ExportedMapper.toExported(found)).build());
    reply.onCompleted();
  }

  @Override
  public void remove(RemoveRequest request, StreamObserver<RemoveReply> reply) {
    reply.onNext(logic.remove(request.getId()) ? REMOVED : NOT_REMOVED);
    reply.onCompleted();
  }
}
