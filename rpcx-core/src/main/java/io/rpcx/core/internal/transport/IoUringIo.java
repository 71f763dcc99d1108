package io.rpcx.core.internal.transport;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

/**
 * Native io_uring (Linux, where the kernel allows it); loaded only when
 * netty-transport-classes-io_uring is on the class path.
 */
final class IoUringIo implements NativeIo {
  @Override
  public boolean isAvailable() {
    return IoUring.isAvailable();
  }

  @Override
  public Throwable unavailabilityCause() {
    return IoUring.unavailabilityCause();
  }

  @Override
  public IoHandlerFactory newFactory() {
    return IoUringIoHandler.newFactory();
  }

  @Override
  public Class<? extends SocketChannel> socketChannel() {
    return IoUringSocketChannel.class;
  }

  @Override
  public Class<? extends ServerSocketChannel> serverSocketChannel() {
    return IoUringServerSocketChannel.class;
  }
}
