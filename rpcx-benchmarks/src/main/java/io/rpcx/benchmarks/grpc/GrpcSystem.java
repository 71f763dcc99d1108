package io.rpcx.benchmarks.grpc;

import com.google.protobuf.ByteString;
import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.grpc.proto.BenchGrpc;
import io.rpcx.benchmarks.grpc.proto.Blob;
import io.rpcx.benchmarks.grpc.proto.FindReply;
import io.rpcx.benchmarks.grpc.proto.MessageId;
import io.rpcx.benchmarks.grpc.proto.Text;
import io.rpcx.benchmarks.grpc.proto.UpdateRequest;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * gRPC-java over its shaded Netty transport, plaintext HTTP/2 on loopback, protobuf messages
 * generated at build time from {@code bench.proto}.
 *
 * <p>Server: {@code NettyServerBuilder} with gRPC's default executor (a cached thread pool), so
 * handlers run off the event loop as in a default gRPC deployment. Client: one {@link
 * ManagedChannel} (one HTTP/2 connection, calls multiplexed as streams) shared by all threads,
 * through the classic blocking stub.
 *
 * <p>The benchmark model is POJOs, so the client adapter converts POJO to protobuf message before
 * each call and back after it ({@link ProtoMapper}), which is what a gRPC user with a POJO domain
 * model does; the conversion is part of the measured cost. The server answers with the parsed
 * messages without converting them back to POJOs (see {@link GrpcBenchService}).
 *
 * <p>Two systems on the same server and channel: {@code grpc} makes the workloads' calls with
 * POJOs, converted as above; {@code grpc-native} makes them as a user whose model is the generated
 * messages, with messages built once per thread and passed to the stub directly, nothing converted
 * in the measured call ({@link NativeCalls}, through {@link BenchmarkClient#newCall}). Its POJO
 * methods convert as {@code grpc}'s do.
 */
public final class GrpcSystem implements BenchmarkSystem {
  private final boolean nativeMessages;

  private GrpcSystem(boolean nativeMessages) {
    this.nativeMessages = nativeMessages;
  }

  /** Callers hold POJOs; each call converts to and from the generated messages. */
  public static GrpcSystem withPojos() {
    return new GrpcSystem(false);
  }

  /** Callers hold the generated messages; nothing is converted in the measured call. */
  public static GrpcSystem withNativeMessages() {
    return new GrpcSystem(true);
  }

  @Override
  public String name() {
    return nativeMessages ? "grpc-native" : "grpc";
  }

  @Override
  public String description() {
    return "grpc-java "
        + Versions.get("grpc")
        + ", HTTP/2 over grpc-netty-shaded, protobuf "
        + Versions.get("protobuf")
        + ", default server executor, one channel, blocking stub, "
        + (nativeMessages
            ? "callers pass and get generated messages"
            : "callers' POJOs converted to and from messages");
  }

  @Override
  public boolean supports(Workload workload) {
    return true;
  }

  @Override
  public BenchmarkServer startServer() throws Exception {
    return serve(new GrpcBenchService());
  }

  @Override
  public BenchmarkClient connect(int port) {
    return new Client(channel(port), nativeMessages);
  }

  /**
   * Starts a gRPC server of {@code service} on 127.0.0.1 at an ephemeral port with gRPC's defaults
   * (its cached-pool executor; epoll where grpc-netty-shaded finds it): the server of every gRPC
   * system here, unary and streaming alike.
   */
  static BenchmarkServer serve(BindableService service) throws IOException {
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .addService(service)
            .build()
            .start();
    return new BenchmarkServer() {
      @Override
      public int port() {
        return server.getPort();
      }

      @Override
      public void close() {
        try {
          server.shutdown();
          if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
          }
        } catch (InterruptedException e) {
          server.shutdownNow();
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  /**
   * One plaintext channel (one HTTP/2 connection) to 127.0.0.1:{@code port} with gRPC's defaults:
   * the client connection of every gRPC system here.
   */
  static ManagedChannel channel(int port) {
    return NettyChannelBuilder.forAddress(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
        .usePlaintext()
        .build();
  }

  /** Shuts {@code channel} down, waiting up to 5 s, then 5 s more after cancelling its calls. */
  static void shutdown(ManagedChannel channel) {
    try {
      channel.shutdown();
      if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Converts POJOs to messages and calls the blocking stub; with native messages, the workloads'
   * calls skip the POJOs.
   */
  private static final class Client implements BenchmarkClient {
    private final ManagedChannel channel;
    private final BenchGrpc.BenchBlockingStub stub;
    private final boolean nativeMessages;

    Client(ManagedChannel channel, boolean nativeMessages) {
      this.channel = channel;
      this.stub = BenchGrpc.newBlockingStub(channel);
      this.nativeMessages = nativeMessages;
    }

    @Override
    public Workload.Call newCall(Workload workload) {
      return nativeMessages ? NativeCalls.newCall(stub, workload) : workload.newCall(this);
    }

    @Override
    public String echo(String text) {
      return stub.echo(Text.newBuilder().setValue(text).build()).getValue();
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      return ProtoMapper.fromProto(stub.loadOrder(ProtoMapper.toProto(order)));
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      return ProtoMapper.fromProto(stub.loadOrders(ProtoMapper.toProto(orders)));
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      // copyFrom and toByteArray copy, as a user holding a byte[] has to.
      return stub.echoBytes(Blob.newBuilder().setValue(ByteString.copyFrom(data)).build())
          .getValue()
          .toByteArray();
    }

    @Override
    public Message create(Message message) {
      return ProtoMapper.fromProto(stub.create(ProtoMapper.toProto(message)));
    }

    @Override
    public boolean update(long id, Message message) {
      return stub.update(
              UpdateRequest.newBuilder().setId(id).setMessage(ProtoMapper.toProto(message)).build())
          .getOk();
    }

    @Override
    public Message findById(long id) {
      FindReply reply = stub.findById(MessageId.newBuilder().setId(id).build());
      return reply.getFound() ? ProtoMapper.fromProto(reply.getMessage()) : null;
    }

    @Override
    public boolean remove(long id) {
      return stub.remove(MessageId.newBuilder().setId(id).build()).getOk();
    }

    @Override
    public void close() {
      shutdown(channel);
    }
  }
}
