package io.rpcx.core.internal.transport;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O transports: NIO everywhere, and Netty's native ones where their optional jars are on the
 * class path and their library loads: epoll on Linux, kqueue on macOS (each chosen automatically),
 * io_uring on Linux when asked for. The system property {@code rpcx.transport} ({@code auto}, the
 * default, {@code nio}, {@code epoll}, {@code kqueue} or {@code io_uring}) and the builders' {@code
 * nativeTransport(false)} decide; see {@link TransportChoice}. The native classes are reached only
 * through {@link NativeIo}, loaded after their presence was checked, so this type loads without
 * them.
 */
public enum Transports {
  NIO("nio", null, null, null),
  EPOLL(
      "epoll",
      "netty-transport-native-epoll",
      "io.netty.channel.epoll.Epoll",
      "io.rpcx.core.internal.transport.EpollIo"),
  KQUEUE(
      "kqueue",
      "netty-transport-native-kqueue",
      "io.netty.channel.kqueue.KQueue",
      "io.rpcx.core.internal.transport.KQueueIo"),
  IO_URING(
      "io_uring",
      "netty-transport-native-io_uring",
      "io.netty.channel.uring.IoUring",
      "io.rpcx.core.internal.transport.IoUringIo");

  /**
   * The buffer allocator of every RPCX channel ({@link ThreadAwareAllocator}). Platform threads
   * allocate from a pooled allocator with 16 MiB chunks: Netty 4.2's default adaptive allocator
   * pools buffers only up to 1 MiB, and its pooled allocator's 4 MiB chunks are freed as soon as a
   * large buffer filled one past a quarter and was released, so frames carrying values of a MiB
   * would each take fresh, zeroed memory.
   *
   * <p>Every platform thread gets a thread-local cache, not only event-loop threads (Netty's
   * default): frames are encoded on the calling thread (client) and on the worker thread (server),
   * so without a cache each frame takes and returns its buffer under an arena lock. With 32 callers
   * on 2 cores that lock was 94% of all lock waiting (async-profiler {@code lock},
   * docs/benchmarks/profiles/lock-echo16-32t-before.txt). A buffer freed on the event loop goes
   * back to the cache of the thread that took it; a cache holds at most Netty's default number of
   * small and normal buffers per size class and is trimmed when unused.
   *
   * <p>Virtual threads get no cache: they allocate from Netty's adaptive allocator, which keeps no
   * state per thread, so thousands of virtual callers, or a virtual thread per call on a server,
   * make no thousands of caches ({@link #platformThreadCaches()} counts them).
   */
  public static final ByteBufAllocator ALLOCATOR =
      new ThreadAwareAllocator(
          new PooledByteBufAllocator(
              true,
              0,
              PooledByteBufAllocator.defaultNumDirectArena(),
              PooledByteBufAllocator.defaultPageSize(),
              11,
              PooledByteBufAllocator.defaultSmallCacheSize(),
              PooledByteBufAllocator.defaultNormalCacheSize(),
              true),
          new AdaptiveByteBufAllocator(true, false));

  private static final Logger logger = LoggerFactory.getLogger(Transports.class);

  /** The choices logged so far: each is logged once per JVM, at the first start that makes it. */
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

  private final String setting;
  private final String nativeArtifact;
  private final String probeClass;
  private final String ioClass;
  private volatile NativeIo io;

  Transports(String setting, String nativeArtifact, String probeClass, String ioClass) {
    this.setting = setting;
    this.nativeArtifact = nativeArtifact;
    this.probeClass = probeClass;
    this.ioClass = ioClass;
  }

  /**
   * The transport to use, as {@code rpcx.transport} and {@code allowNative} say; logs the choice
   * (once per JVM) and, when an automatic choice falls back to NIO, the dependency that would give
   * a native transport.
   *
   * @throws IllegalArgumentException if {@code rpcx.transport} has another value
   * @throws IllegalStateException if {@code rpcx.transport} asks for a native transport that is
   *     unavailable here
   */
  public static Transports choose(boolean allowNative) {
    TransportChoice choice =
        TransportChoice.make(
            System.getProperty("rpcx.transport", "auto"),
            allowNative,
            Platform.current(),
            Transports::unavailability);
    String line = choice.describe();
    if (LOGGED.add(line)) {
      logger.info(line);
    }
    return choice.transport();
  }

  /**
   * The thread-local caches {@link #ALLOCATOR} holds now: one per platform thread that allocated
   * RPCX frames (event loops, worker threads, callers) and has not ended, none per virtual thread.
   */
  public static int platformThreadCaches() {
    return ((ThreadAwareAllocator) ALLOCATOR).platform().metric().numThreadLocalCaches();
  }

  /**
   * The pooled allocator behind {@link #ALLOCATOR} that platform threads use, for its metrics: the
   * direct memory its arenas reserved and the part of it buffers in use hold (the connection-cost
   * tool of rpcx-benchmarks reads them).
   */
  public static PooledByteBufAllocator platformAllocator() {
    return ((ThreadAwareAllocator) ALLOCATOR).platform();
  }

  /** The value of {@code rpcx.transport} that asks for this transport: {@code io_uring}. */
  public String setting() {
    return setting;
  }

  /** The artifact id of the native jar, {@code netty-transport-native-epoll}; null for NIO. */
  String nativeArtifact() {
    return nativeArtifact;
  }

  /** A new event loop group of {@code threads} daemon threads named {@code name-N}. */
  public EventLoopGroup newGroup(int threads, String name) {
    IoHandlerFactory factory = this == NIO ? NioIoHandler.newFactory() : nativeIo().newFactory();
    return new MultiThreadIoEventLoopGroup(threads, NetworkThreads.factory(name), factory);
  }

  public Class<? extends SocketChannel> socketChannel() {
    return this == NIO ? NioSocketChannel.class : nativeIo().socketChannel();
  }

  public Class<? extends ServerSocketChannel> serverSocketChannel() {
    return this == NIO ? NioServerSocketChannel.class : nativeIo().serverSocketChannel();
  }

  /** Why this transport cannot be used here, or {@code null} if it can. */
  static Unavailable unavailability(Transports transport) {
    if (transport == NIO) {
      return null;
    }
    ClassLoader loader = Transports.class.getClassLoader();
    try {
      Class.forName(transport.probeClass, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return new Unavailable(
          "io.netty:" + transport.nativeArtifact.replace("-native-", "-classes-")
              + " is not on the class path",
          null);
    }
    NativeIo io = transport.nativeIo();
    if (io.isAvailable()) {
      return null;
    }
    Throwable cause = io.unavailabilityCause();
    return new Unavailable("its native library did not load (" + cause + ")", cause);
  }

  private NativeIo nativeIo() {
    NativeIo loaded = io;
    if (loaded == null) {
      try {
        loaded =
            (NativeIo)
                Class.forName(ioClass, true, Transports.class.getClassLoader())
                    .getDeclaredConstructor()
                    .newInstance();
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("rpcx-core is incomplete: " + ioClass + " is missing", e);
      }
      io = loaded;
    }
    return loaded;
  }

  /** Why a native transport cannot be used: a sentence for people, and the error behind it. */
  record Unavailable(String reason, Throwable cause) {}
}
