package io.rpcx.benchmarks.grpc;

import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.StreamClient;
import io.rpcx.benchmarks.api.StreamPayload;
import io.rpcx.benchmarks.api.StreamSystem;
import io.rpcx.benchmarks.api.StreamTally;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.grpc.proto.BenchStreamsGrpc;
import io.rpcx.benchmarks.grpc.proto.Text;
import io.rpcx.benchmarks.grpc.proto.TextsRequest;

/**
 * grpc-java's server streaming in the streaming benchmark: the {@code stream} rpc {@code
 * BenchStreams.Texts} of {@code bench.proto}, with its generated messages, on the server and the
 * channel every gRPC system here uses ({@link GrpcSystem#serve}, {@link GrpcSystem#channel}:
 * plaintext HTTP/2, gRPC's defaults, epoll where grpc-netty-shaded finds it). The client is the
 * async stub with a response observer that checks and counts each {@code Text}, reading its value
 * as a {@code String}.
 *
 * <p>Four systems, for the two ways gRPC users write each end:
 *
 * <table>
 *   <tr><th>name</th><th>server ({@link GrpcStreamService})</th><th>client</th></tr>
 *   <tr><td>{@code grpc}</td><td>plain {@code onNext} loop</td><td>automatic flow control</td></tr>
 *   <tr><td>{@code grpc-ready}</td><td>writes while {@code isReady()}, from {@code onReady}</td>
 *       <td>automatic flow control</td></tr>
 *   <tr><td>{@code grpc-batch}</td><td>plain {@code onNext} loop</td>
 *       <td>requests in batches</td></tr>
 *   <tr><td>{@code grpc-ready-batch}</td><td>writes while {@code isReady()}</td>
 *       <td>requests in batches</td></tr>
 * </table>
 *
 * <p>Automatic flow control is what the async stub does unless told otherwise: gRPC requests the
 * next message each time the observer has taken one. Requesting in batches is gRPC's manual form
 * ({@code disableAutoRequestWithInitial}, then {@code request(n)}), with the batches of RPCX's
 * subscriber ({@value StreamClient#PREFETCH} up front, {@value StreamClient#REPLENISH} at a time).
 * Either way the HTTP/2 window (with gRPC's BDP tuning) paces the server's transport.
 */
public final class GrpcStreamSystem implements StreamSystem {
  private final boolean onReady;
  private final boolean batches;

  private GrpcStreamSystem(boolean onReady, boolean batches) {
    this.onReady = onReady;
    this.batches = batches;
  }

  /**
   * The server writes in a plain loop ({@code grpc}), or while ready from its {@code onReady}
   * handler ({@code grpc-ready}); the client leaves flow control to gRPC.
   */
  public static GrpcStreamSystem automatic(boolean onReady) {
    return new GrpcStreamSystem(onReady, false);
  }

  /**
   * As {@link #automatic}, but the client requests messages in batches ({@code grpc-batch}, {@code
   * grpc-ready-batch}).
   */
  public static GrpcStreamSystem inBatches(boolean onReady) {
    return new GrpcStreamSystem(onReady, true);
  }

  @Override
  public String name() {
    return "grpc" + (onReady ? "-ready" : "") + (batches ? "-batch" : "");
  }

  @Override
  public String description() {
    return "grpc-java " + Versions.get("grpc") + ", stream rpc over grpc-netty-shaded, protobuf "
        + Versions.get("protobuf") + ", server writing "
        + (onReady ? "while isReady() from its onReady handler" : "in a plain onNext loop")
        + ", async stub "
        + (batches
            ? "requesting " + StreamClient.PREFETCH + " then " + StreamClient.REPLENISH
                + " at a time"
            : "with automatic inbound flow control");
  }

  @Override
  public BenchmarkServer startServer() throws Exception {
    return GrpcSystem.serve(onReady ? GrpcStreamService.onReady() : GrpcStreamService.plainLoop());
  }

  @Override
  public StreamClient connect(int port) {
    ManagedChannel channel = GrpcSystem.channel(port);
    BenchStreamsGrpc.BenchStreamsStub stub = BenchStreamsGrpc.newStub(channel);
    return new StreamClient() {
      @Override
      public long stream(int messages, StreamPayload payload) {
        StreamTally tally = new StreamTally(messages, payload.length());
        stub.texts(
            TextsRequest.newBuilder().setCount(messages).setLength(payload.length()).build(),
            new Consumer(tally, batches));
        return tally.await();
      }

      @Override
      public void close() {
        GrpcSystem.shutdown(channel);
      }
    };
  }

  /** Takes every message; gRPC calls it one callback at a time. */
  private static final class Consumer implements ClientResponseObserver<TextsRequest, Text> {
    private final StreamTally tally;
    private final boolean batches;
    private ClientCallStreamObserver<TextsRequest> call;
    private int taken;

    Consumer(StreamTally tally, boolean batches) {
      this.tally = tally;
      this.batches = batches;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<TextsRequest> call) {
      this.call = call;
      if (batches) {
        call.disableAutoRequestWithInitial(StreamClient.PREFETCH);
      }
    }

    @Override
    public void onNext(Text text) {
      if (!tally.accept(text.getValue().length())) {
        call.cancel("wrong message", null);
        return;
      }
      if (batches && ++taken == StreamClient.REPLENISH) {
        taken = 0;
        call.request(StreamClient.REPLENISH);
      }
    }

    @Override
    public void onError(Throwable failure) {
      tally.failed(failure);
    }

    @Override
    public void onCompleted() {
      tally.completed();
    }
  }
}
