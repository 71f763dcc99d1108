package io.rpcx.interop;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A grpc-java server of {@link GrpcJavaInterop} on a free port of 127.0.0.1. */
final class GrpcJavaServer implements AutoCloseable {
  final GrpcJavaInterop service = new GrpcJavaInterop();
  final Server server;

  private GrpcJavaServer(Server server) {
    this.server = server;
  }

  private GrpcJavaServer(NettyServerBuilder builder) {
    this.server =
        builder
            .maxInboundMessageSize(64 << 20)
            .addService(ServerInterceptors.intercept(service, service.interceptor()))
            .build();
  }

  /** A started plaintext server. */
  static GrpcJavaServer start() {
    return start(builder());
  }

  /** A started server with TLS of {@code certificateChain} and {@code privateKey}. */
  static GrpcJavaServer startTls(Path certificateChain, Path privateKey) throws IOException {
    return start(
        builder()
            .sslContext(
                GrpcSslContexts.forServer(certificateChain.toFile(), privateKey.toFile()).build()));
  }

  private static NettyServerBuilder builder() {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0));
  }

  private static GrpcJavaServer start(NettyServerBuilder builder) {
    GrpcJavaServer created = new GrpcJavaServer(builder);
    try {
      created.server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return created;
  }

  int port() {
    return server.getPort();
  }

  /** {@code grpc://127.0.0.1:<port>}. */
  String target() {
    return "grpc://127.0.0.1:" + port();
  }

  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
