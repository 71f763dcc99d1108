package io.rpcx.core.internal.transport;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;

/**
 * One of Netty's native transports, reached only through this interface: its classes are in
 * optional jars, so they are loaded only after {@link Transports} found them there.
 */
interface NativeIo {
  /** Whether the native library loaded on this machine (and kernel). */
  boolean isAvailable();

  /** Why it is not available; {@code null} if it is. */
  Throwable unavailabilityCause();

  IoHandlerFactory newFactory();

  Class<? extends SocketChannel> socketChannel();

  Class<? extends ServerSocketChannel> serverSocketChannel();
}
