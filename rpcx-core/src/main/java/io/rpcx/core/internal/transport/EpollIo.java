package io.rpcx.core.internal.transport;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;

/** Native epoll (Linux); loaded only when netty-transport-classes-epoll is on the class path. */
final class EpollIo implements NativeIo {
  @Override
  public boolean isAvailable() {
    return Epoll.isAvailable();
  }

  @Override
  public Throwable unavailabilityCause() {
    return Epoll.unavailabilityCause();
  }

  @Override
  public IoHandlerFactory newFactory() {
    return EpollIoHandler.newFactory();
  }

  @Override
  public Class<? extends SocketChannel> socketChannel() {
    return EpollSocketChannel.class;
  }

  @Override
  public Class<? extends ServerSocketChannel> serverSocketChannel() {
    return EpollServerSocketChannel.class;
  }
}
