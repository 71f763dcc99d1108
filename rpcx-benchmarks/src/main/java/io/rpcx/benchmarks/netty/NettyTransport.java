package io.rpcx.benchmarks.netty;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.rpcx.core.internal.transport.Transports;

/**
 * The transport RPCX itself picks in this JVM ({@link Transports#choose}: epoll on Linux where its
 * native library loads, kqueue on macOS, NIO elsewhere, or what {@code -Drpcx.transport=} asks
 * for), so the raw Netty floor always runs on the same I/O as the RPCX systems it is compared with.
 */
final class NettyTransport {
  static final Transports TRANSPORT = Transports.choose(true);

  private NettyTransport() {}

  static EventLoopGroup newGroup(int threads, String name) {
    return TRANSPORT.newGroup(threads, name);
  }

  static Class<? extends SocketChannel> socketChannel() {
    return TRANSPORT.socketChannel();
  }

  static Class<? extends ServerSocketChannel> serverSocketChannel() {
    return TRANSPORT.serverSocketChannel();
  }
}
