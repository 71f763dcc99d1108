package io.rpcx.benchmarks.grpc;

import bench.BenchGrpc;
import bench.BenchOuterClass.CreateRequest;
import bench.BenchOuterClass.EchoBytesRequest;
import bench.BenchOuterClass.EchoReply;
import bench.BenchOuterClass.EchoRequest;
import bench.BenchOuterClass.FindByIdReply;
import bench.BenchOuterClass.FindByIdRequest;
import bench.BenchOuterClass.LoadOrderReply;
import bench.BenchOuterClass.LoadOrderRequest;
import bench.BenchOuterClass.LoadOrdersReply;
import bench.BenchOuterClass.LoadOrdersRequest;
import bench.BenchOuterClass.RemoveRequest;
import bench.BenchOuterClass.UpdateRequest;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.benchmarks.rpcx.RpcxSystem;
import java.util.List;

/**
 * One grpc-java client, two servers (issue 28's speed comparison): the client is grpc-java with
 * the stubs and messages the build generates from RPCX's export of the benchmark service ({@code
 * bench.proto}, service {@code bench.Bench}), its calls made as {@code grpc-native} makes them
 * (messages built once per thread, nothing converted in the call, {@link ExportedCalls}), on the
 * same channel as every gRPC system here ({@link GrpcSystem#channel}). The servers:
 *
 * <ul>
 *   <li>{@code grpc-exported}: grpc-java's own server implementing that generated service ({@link
 *       ExportedBenchService}), set up as every gRPC server here ({@link GrpcSystem#serve}: gRPC's
 *       defaults, its cached-pool executor);
 *   <li>{@code grpc-on-rpcx}: the RPCX server of the {@code rpcx} system ({@link
 *       RpcxSystem#withWorkerPool()}: the plain annotated {@code BenchServiceImpl}, the worker
 *       pool, RPCX's defaults), answering on its gRPC side on the same port as its own protocol.
 * </ul>
 *
 * The hand-written schema of {@code grpc-native} cannot be the common one: RPCX serves {@code
 * /bench.Bench/echo}, not {@code /rpcx.bench.v1.Bench/Echo}, and numbers {@code OrderInfo}'s fields
 * its own way. The client's POJO methods (the stress tool's calls) convert with {@link
 * ExportedMapper}.
 */
public final class GrpcExportSystem implements BenchmarkSystem {
  private final boolean onRpcx;

  private GrpcExportSystem(boolean onRpcx) {
    this.onRpcx = onRpcx;
  }

  /** grpc-java's server of the exported service: {@code grpc-exported}. */
  public static GrpcExportSystem onGrpcJava() {
    return new GrpcExportSystem(false);
  }

  /** RPCX's server, called on its gRPC side: {@code grpc-on-rpcx}. */
  public static GrpcExportSystem onRpcx() {
    return new GrpcExportSystem(true);
  }

  @Override
  public String name() {
    return onRpcx ? "grpc-on-rpcx" : "grpc-exported";
  }

  @Override
  public String description() {
    return "grpc-java "
        + Versions.get("grpc")
        + " client on the stubs generated from RPCX's export, one channel, blocking stub,"
        + " generated messages; server: "
        + (onRpcx
            ? "RPCX " + Versions.get("rpcx") + "'s gRPC side (worker pool, defaults)"
            : "grpc-java's, implementing the generated service (default executor)");
  }

  @Override
  public boolean supports(Workload workload) {
    return true;
  }

  @Override
  public BenchmarkServer startServer() throws Exception {
    return onRpcx
        ? RpcxSystem.withWorkerPool().startServer()
        : GrpcSystem.serve(new ExportedBenchService());
  }

  @Override
  public BenchmarkClient connect(int port) {
    return new Client(GrpcSystem.channel(port));
  }

  /** The blocking stub of the exported service; POJO calls converted by {@link ExportedMapper}. */
  private static final class Client implements BenchmarkClient {
    private final ManagedChannel channel;
    private final BenchGrpc.BenchBlockingStub stub;

    Client(ManagedChannel channel) {
      this.channel = channel;
      this.stub = BenchGrpc.newBlockingStub(channel);
    }

    @Override
    public Workload.Call newCall(Workload workload) {
      return ExportedCalls.newCall(stub, workload);
    }

    @Override
    public String echo(String text) {
      EchoReply reply = stub.echo(EchoRequest.newBuilder().setText(text).build());
      return reply.hasValue() ? reply.getValue() : null;
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      LoadOrderReply reply =
          stub.loadOrder(
              LoadOrderRequest.newBuilder().setOrder(ExportedMapper.toExported(order)).build());
      return reply.hasValue() ? ExportedMapper.fromExported(reply.getValue()) : null;
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      LoadOrdersReply reply =
          stub.loadOrders(
              LoadOrdersRequest.newBuilder().setOrders(ExportedMapper.toExported(orders)).build());
      return reply.hasValue() ? ExportedMapper.fromExported(reply.getValue()) : null;
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      // copyFrom and toByteArray copy, as a user holding a byte[] has to.
      return stub.echoBytes(
              EchoBytesRequest.newBuilder().setData(ByteString.copyFrom(data)).build())
          .getValue()
          .toByteArray();
    }

    @Override
    public Message create(Message message) {
      return ExportedMapper.fromExported(
          stub.create(
                  CreateRequest.newBuilder()
                      .setMessage(ExportedMapper.toExported(message))
                      .build())
              .getValue());
    }

    @Override
    public boolean update(long id, Message message) {
      return stub.update(
              UpdateRequest.newBuilder()
                  .setId(id)
                  .setMessage(ExportedMapper.toExported(message))
                  .build())
          .getValue();
    }

    @Override
    public Message findById(long id) {
      FindByIdReply reply = stub.findById(FindByIdRequest.newBuilder().setId(id).build());
      return reply.hasValue() ? ExportedMapper.fromExported(reply.getValue()) : null;
    }

    @Override
    public boolean remove(long id) {
      return stub.remove(RemoveRequest.newBuilder().setId(id).build()).getValue();
    }

    @Override
    public void close() {
      GrpcSystem.shutdown(channel);
    }
  }
}
