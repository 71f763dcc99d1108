package io.rpcx.benchmarks.grpc;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.rpcx.benchmarks.grpc.proto.BenchStreamsGrpc;
import io.rpcx.benchmarks.grpc.proto.Text;
import io.rpcx.benchmarks.grpc.proto.TextsRequest;
import io.rpcx.benchmarks.model.Payloads;

/**
 * The gRPC server side of the streaming benchmark, in the two ways gRPC users write a server
 * stream. Both build the {@link Text} message once per call and send it {@code count} times.
 *
 * <ul>
 *   <li>{@link #plainLoop()}: {@code onNext} in a loop, then {@code onCompleted}, the way most
 *       gRPC code and its tutorials write it. gRPC never blocks {@code onNext}: what the client's
 *       HTTP/2 window does not take yet is queued in the server's transport.
 *   <li>{@link #onReady()}: flow-controlled with {@link ServerCallStreamObserver}, as grpc-java's
 *       manual flow-control example does: the {@code onReady} handler writes while {@code
 *       isReady()}, and gRPC calls it again when the transport can take more.
 * </ul>
 */
final class GrpcStreamService extends BenchStreamsGrpc.BenchStreamsImplBase {
  private final boolean onReady;

  private GrpcStreamService(boolean onReady) {
    this.onReady = onReady;
  }

  static GrpcStreamService plainLoop() {
    return new GrpcStreamService(false);
  }

  static GrpcStreamService onReady() {
    return new GrpcStreamService(true);
  }

  @Override
  public void texts(TextsRequest request, StreamObserver<Text> observer) {
    int count = request.getCount();
    if (count < 0 || request.getLength() < 0) {
      observer.onError(
          Status.INVALID_ARGUMENT
              .withDescription(
                  "count: " + count + ", length: " + request.getLength() + " (expected: >= 0)")
              .asRuntimeException());
      return;
    }
    Text text = Text.newBuilder().setValue(Payloads.text(request.getLength())).build();
    if (!onReady) {
      for (int i = 0; i < count; i++) {
        observer.onNext(text);
      }
      observer.onCompleted();
      return;
    }
    ServerCallStreamObserver<Text> call = (ServerCallStreamObserver<Text>) observer;
    ReadyWriter writer = new ReadyWriter(call, text, count);
    call.setOnCancelHandler(writer::cancelled);
    call.setOnReadyHandler(writer); // gRPC runs it once the method returns if the call is ready
  }

  /**
   * Writes while the call is ready; gRPC runs it (on the call's serializing executor, never
   * concurrently with itself or the cancel handler) each time the transport can take more.
   */
  private static final class ReadyWriter implements Runnable {
    private final ServerCallStreamObserver<Text> call;
    private final Text text;
    private final int count;
    private int sent;
    private boolean done;

    ReadyWriter(ServerCallStreamObserver<Text> call, Text text, int count) {
      this.call = call;
      this.text = text;
      this.count = count;
    }

    @Override
    public void run() {
      if (done) {
        return;
      }
      while (sent < count && call.isReady()) {
        call.onNext(text);
        sent++;
      }
      if (sent == count) {
        done = true;
        call.onCompleted();
      }
    }

    void cancelled() {
      done = true;
    }
  }
}
