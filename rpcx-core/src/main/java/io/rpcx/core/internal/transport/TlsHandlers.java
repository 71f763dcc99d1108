package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.rpcx.core.TlsConfig;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * The TLS of one client or server: its context ({@link SslContexts}) and the pool its handshakes'
 * delegated tasks run on. A TLS engine hands the expensive steps of a handshake (key exchange,
 * signing, checking certificates, which take milliseconds each and a second or more in a JVM's
 * first handshake) out as tasks; run on the event loop, as an {@code SslHandler} does by default,
 * they hold up every other connection of that loop, and a burst of new connections stalls the
 * calls of the open ones. Here they run on a pool of one thread per core, idle threads ending
 * after a minute. Thread-safe; {@link #close} with the client or server.
 */
public final class TlsHandlers implements AutoCloseable {
  private final SslContext context;
  private final ThreadPoolExecutor tasks;
  private final String providerName;

  private TlsHandlers(SslContext context, ThreadPoolExecutor tasks, String providerName) {
    this.context = context;
    this.tasks = tasks;
    this.providerName = providerName;
  }

  /**
   * The TLS of {@code config}; its pool's threads are named {@code threadPrefix-n}.
   *
   * @throws IllegalArgumentException or {@link java.io.UncheckedIOException} for invalid settings
   *     or files, {@link IllegalStateException} if OpenSSL was asked for and cannot be loaded
   */
  public static TlsHandlers create(TlsConfig config, String threadPrefix) {
    return create(config, threadPrefix, List.of());
  }

  /**
   * The TLS of a server of {@code config} that offers {@code protocols} by ALPN ({@code h2} for
   * gRPC on RPCX's port); a client offering none of them (RPCX's own) still connects.
   */
  public static TlsHandlers create(TlsConfig config, String threadPrefix, List<String> protocols) {
    SslProvider provider = SslContexts.provider(config.provider());
    SslContext context = SslContexts.create(config, provider, protocols);
    int threads = Runtime.getRuntime().availableProcessors();
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor tasks =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, threadPrefix + "-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    tasks.allowCoreThreadTimeOut(true);
    return new TlsHandlers(context, tasks, provider == SslProvider.JDK ? "JDK" : "OpenSSL");
  }

  /** The handler of a connection a server accepted. */
  public SslHandler server(ByteBufAllocator allocator) {
    return context.newHandler(allocator, tasks);
  }

  /**
   * The handler of a client's connection to {@code host:port}, checking the host name when asked
   * to; the TLS handshake must be done within {@code handshakeTimeoutMillis}.
   */
  public SslHandler client(
      ByteBufAllocator allocator,
      String host,
      int port,
      boolean verifyHost,
      long handshakeTimeoutMillis) {
    SslHandler handler = context.newHandler(allocator, host, port, tasks);
    handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
    if (verifyHost) {
      SSLEngine engine = handler.engine();
      SSLParameters parameters = engine.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      engine.setSSLParameters(parameters);
    }
    return handler;
  }

  /** {@code TLS (OpenSSL)} or {@code TLS (JDK)}, for the line logged at start. */
  public String describe() {
    return "TLS (" + providerName + ")";
  }

  /** Stops the pool; handshakes still under way fail. */
  @Override
  public void close() {
    ExecutorService pool = tasks;
    pool.shutdownNow();
    try {
      pool.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
