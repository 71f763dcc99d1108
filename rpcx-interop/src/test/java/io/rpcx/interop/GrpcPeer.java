package io.rpcx.interop;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.rpcx.server.RpcxServer;
import java.util.concurrent.TimeUnit;

/** An RPCX server of {@link InteropServiceImpl} and a grpc-java channel to its port. */
final class GrpcPeer implements AutoCloseable {
  final RpcxServer server;
  final ManagedChannel channel;
  /** Whether closing this stops the server (it started it). */
  private final boolean owner;

  private GrpcPeer(RpcxServer server, boolean owner) {
    this.server = server;
    this.owner = owner;
    this.channel =
        NettyChannelBuilder.forAddress("127.0.0.1", server.port())
            .usePlaintext()
            .maxInboundMessageSize(64 << 20)
            .build();
  }

  /** The server as {@code server} configured it, started, and a plaintext channel to it. */
  static GrpcPeer start(RpcxServer.Builder server) {
    return new GrpcPeer(server.build().start(), true);
  }

  /** Another channel (its own connection) to {@code server}, which closing this leaves running. */
  static GrpcPeer sharing(RpcxServer server) {
    return new GrpcPeer(server, false);
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
      if (owner) {
        server.stop();
      }
    }
  }
}
