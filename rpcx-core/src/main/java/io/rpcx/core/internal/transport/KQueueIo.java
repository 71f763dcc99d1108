package io.rpcx.core.internal.transport;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.kqueue.KQueue;
import io.netty.channel.kqueue.KQueueIoHandler;
import io.netty.channel.kqueue.KQueueServerSocketChannel;
import io.netty.channel.kqueue.KQueueSocketChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;

/** Native kqueue (macOS); loaded only when netty-transport-classes-kqueue is on the class path. */
final class KQueueIo implements NativeIo {
  @Override
  public boolean isAvailable() {
    return KQueue.isAvailable();
  }

  @Override
  public Throwable unavailabilityCause() {
    return KQueue.unavailabilityCause();
  }

  @Override
  public IoHandlerFactory newFactory() {
    return KQueueIoHandler.newFactory();
  }

  @Override
  public Class<? extends SocketChannel> socketChannel() {
    return KQueueSocketChannel.class;
  }

  @Override
  public Class<? extends ServerSocketChannel> serverSocketChannel() {
    return KQueueServerSocketChannel.class;
  }
}
