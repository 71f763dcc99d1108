package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Locale;

/**
 * Chooses the I/O transport: native epoll where it is available, NIO everywhere else. The system
 * property {@code rpcx.transport} ({@code nio}, {@code epoll} or {@code auto}, the default) and the
 * builders' {@code nativeTransport(false)} force NIO.
 */
public enum Transports {
  EPOLL,
  NIO;

  /**
   * The buffer allocator of every RPCX channel: a pooled allocator with 16 MiB chunks. Netty 4.2's
   * default adaptive allocator pools buffers only up to 1 MiB, and its pooled allocator's 4 MiB
   * chunks are freed as soon as a large buffer filled one past a quarter and was released, so
   * frames carrying values of a MiB would each take fresh, zeroed memory.
   *
   * <p>Every thread gets a thread-local cache, not only event-loop threads (Netty's default):
   * frames are encoded on the calling thread (client) and on the worker thread (server), so
   * without a cache each frame takes and returns its buffer under an arena lock. With 32 callers on
   * 2 cores that lock was 94% of all lock waiting (async-profiler {@code lock},
   * docs/benchmarks/profiles/lock-echo16-32t-before.txt). A buffer freed on the event loop goes back to the cache of the thread that took it; a cache holds
   * at most Netty's default number of small and normal buffers per size class and is trimmed when
   * unused.
   */
  public static final ByteBufAllocator ALLOCATOR =
      new PooledByteBufAllocator(
          true,
          0,
          PooledByteBufAllocator.defaultNumDirectArena(),
          PooledByteBufAllocator.defaultPageSize(),
          11,
          PooledByteBufAllocator.defaultSmallCacheSize(),
          PooledByteBufAllocator.defaultNormalCacheSize(),
          true);

  /** The transport to use: epoll when allowed and available, else NIO. */
  public static Transports choose(boolean allowNative) {
    String forced = System.getProperty("rpcx.transport", "auto").toLowerCase(Locale.ROOT);
    if (!allowNative || forced.equals("nio")) {
      return NIO;
    }
    if (Epoll.isAvailable()) {
      return EPOLL;
    }
    if (forced.equals("epoll")) {
      throw new IllegalStateException(
          "rpcx.transport=epoll but native epoll is unavailable", Epoll.unavailabilityCause());
    }
    return NIO;
  }

  /** A new event loop group of {@code threads} daemon threads named {@code name-N}. */
  public EventLoopGroup newGroup(int threads, String name) {
    IoHandlerFactory factory = this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
  }

  public Class<? extends SocketChannel> socketChannel() {
    return this == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  public Class<? extends ServerSocketChannel> serverSocketChannel() {
    return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }
}
