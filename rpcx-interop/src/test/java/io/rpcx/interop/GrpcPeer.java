package io.rpcx.interop;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.rpcx.server.RpcxServer;
import java.util.concurrent.TimeUnit;

/** An RPCX server of {@link InteropServiceImpl} and a grpc-java channel to its port. */
final class GrpcPeer implements AutoCloseable {
  final RpcxServer server;
  final ManagedChannel channel;

  private GrpcPeer(RpcxServer server, ManagedChannel channel) {
    this.server = server;
    this.channel = channel;
  }

  /** The server as {@code server} configured it, started, and a plaintext channel to it. */
  static GrpcPeer start(RpcxServer.Builder server) {
    RpcxServer started = server.build().start();
    return new GrpcPeer(
        started,
        NettyChannelBuilder.forAddress("127.0.0.1", started.port())
            .usePlaintext()
            .maxInboundMessageSize(64 << 20)
            .build());
  }

  /** The default interop server and a channel to it. */
  static GrpcPeer start() {
    return start(InteropServer.builder(0));
  }

  @Override
  public void close() {
    try {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      server.stop();
    }
  }
}
