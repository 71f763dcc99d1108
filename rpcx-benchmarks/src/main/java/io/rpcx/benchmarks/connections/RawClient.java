package io.rpcx.benchmarks.connections;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.rpcx.core.internal.config.ConnectionSettings;
import io.rpcx.core.internal.transport.Bootstraps;
import io.rpcx.core.internal.transport.FrameDecoder;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.Transports;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A lean RPCX client that opens many real connections over one small set of event loops, which
 * {@code RpcxClient} cannot (it keeps one connection per server address and an event loop group of
 * its own). Each {@link RawConnection} is a full RPCX connection as the server sees it: RPCX's own
 * bootstrap options and allocator, the client preface checked by RPCX's {@link PrefaceHandler},
 * frames split by RPCX's {@link FrameDecoder}, requests written by RPCX's {@code RequestWriter}
 * through a batching {@code WriteQueue} as {@code RpcxClient} writes them. What it leaves out is
 * client-side only: proxies, codecs of Java types, retries, keepalive pings and reconnection; and
 * callers encode requests into unpooled heap buffers (see {@link RawConnection#call}).
 * Thread-safe.
 */
final class RawClient implements AutoCloseable {
  private final EventLoopGroup group;
  private final Bootstrap bootstrap;

  /** A client whose connections share {@code ioThreads} event loops. */
  RawClient(int ioThreads) {
    Transports transport = Transports.choose(true);
    this.group = transport.newGroup(ioThreads, "conncost-client");
    this.bootstrap =
        Bootstraps.client(transport, group, 30_000)
            .handler(
                new ChannelInitializer<Channel>() {
                  @Override
                  protected void initChannel(Channel channel) {
                    channel
                        .pipeline()
                        .addLast("preface", PrefaceHandler.forClient())
                        .addLast(
                            "frames", new FrameDecoder(ConnectionSettings.DEFAULT_MAX_FRAME_SIZE))
                        .addLast("calls", new RawConnection(channel));
                  }
                });
  }

  /** Opens one connection; it completes once both prefaces were exchanged. */
  CompletableFuture<RawConnection> open(InetSocketAddress server) {
    CompletableFuture<RawConnection> opened = new CompletableFuture<>();
    bootstrap
        .connect(server)
        .addListener(
            f -> {
              if (!f.isSuccess()) {
                opened.completeExceptionally(f.cause());
                return;
              }
              Channel channel = ((io.netty.channel.ChannelFuture) f).channel();
              channel.pipeline().get(RawConnection.class).handshake().whenComplete(
                  (connection, failure) -> {
                    if (failure != null) {
                      opened.completeExceptionally(failure);
                    } else {
                      opened.complete(connection);
                    }
                  });
            });
    return opened;
  }

  /**
   * Opens {@code count} connections, at most {@code parallel} handshakes at a time (so the
   * server's accept backlog never overflows into SYN retries), and waits for all of them.
   */
  List<RawConnection> openAll(InetSocketAddress server, int count, int parallel)
      throws InterruptedException {
    Semaphore permits = new Semaphore(parallel);
    List<CompletableFuture<RawConnection>> opening = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      permits.acquire();
      CompletableFuture<RawConnection> one = open(server);
      one.whenComplete((c, e) -> permits.release());
      opening.add(one);
    }
    List<RawConnection> connections = new ArrayList<>(count);
    for (CompletableFuture<RawConnection> one : opening) {
      connections.add(one.join());
    }
    return connections;
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
