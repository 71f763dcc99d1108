package io.rpcx.benchmarks.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.internal.PlatformDependent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client of {@link EchoServer}: one connection shared by all calling threads, replies matched
 * to calls by an {@code int} id in a map of pending futures. The pending map belongs to this
 * connection; when the connection closes, every pending call fails, and calls made after that fail
 * at once.
 *
 * <p>Two ways of sending, one per system:
 *
 * <ul>
 *   <li>{@link #batching} (the floor, {@code netty}): a caller frames its request itself (length,
 *       id, payload in one buffer) and puts it on a multi-producer queue; at most one drain task is
 *       scheduled on the event loop at a time, and it writes every queued frame and flushes once.
 *       However many callers send at once, the event loop makes one {@code write} system call per
 *       turn.
 *   <li>{@link #flushingPerCall} ({@code netty-flush-per-call}): each caller's request goes through
 *       {@code writeAndFlush} with a {@code LengthFieldPrepender}, one flush per call, as the raw
 *       Netty baseline was measured before issue 18.
 * </ul>
 *
 * <p>Thread-safe. Byte ownership: a request buffer passes to the queue (batching) or to Netty
 * ({@code writeAndFlush}); frames still queued when the connection is gone are released by {@link
 * #close()}. A reply frame is copied to a {@code byte[]} on the event loop and released there, so
 * callers never see a {@link ByteBuf}.
 */
final class EchoClient implements AutoCloseable {
  private static final long TIMEOUT_SECONDS = 60;

  private final boolean batching;
  private final EventLoopGroup group = NettyTransport.newGroup(1, "netty-echo-client");
  private final Map<Integer, CompletableFuture<byte[]>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final Queue<ByteBuf> outbound = PlatformDependent.newMpscQueue();
  private final AtomicBoolean drainScheduled = new AtomicBoolean();
  private final Runnable drain = this::drain;
  private final Channel channel;

  /** Set (before pending calls are failed) once the connection is gone; calls then fail at once. */
  private volatile Throwable closed;

  /** The floor's client: callers' frames queued and written by one task, one flush per turn. */
  static EchoClient batching(int port) throws InterruptedException {
    return new EchoClient(port, true);
  }

  /** The labelled variant: every request written and flushed by its caller. */
  static EchoClient flushingPerCall(int port) throws InterruptedException {
    return new EchoClient(port, false);
  }

  private EchoClient(int port, boolean batching) throws InterruptedException {
    this.batching = batching;
    Bootstrap bootstrap =
        new Bootstrap()
            .group(group)
            .channel(NettyTransport.socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            new LengthFieldBasedFrameDecoder(EchoServer.MAX_FRAME, 0, 4, 0, 4));
                    if (!batching) {
                      ch.pipeline().addLast(new LengthFieldPrepender(4));
                    }
                    ch.pipeline().addLast(new ReplyHandler());
                  }
                });
    try {
      channel =
          bootstrap
              .connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
              .sync()
              .channel();
    } catch (InterruptedException | RuntimeException e) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw e;
    }
  }

  /**
   * Sends {@code text} as UTF-8 and returns the echoed text. Encoded by the JDK ({@code getBytes},
   * vectorized for Latin-1 text) and copied in once, which for a 1 MiB string is far cheaper than
   * Netty's character-by-character {@code utf8Bytes} + {@code writeUtf8}; decoded by the JDK too.
   */
  String echo(String text) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    ByteBuf request = newRequest(utf8.length);
    request.writeBytes(utf8);
    return new String(call(request), StandardCharsets.UTF_8);
  }

  /** Sends {@code data} and returns the echoed bytes. */
  byte[] echo(byte[] data) {
    ByteBuf request = newRequest(data.length);
    request.writeBytes(data);
    return call(request);
  }

  /**
   * A buffer for a payload of {@code payloadLength} bytes, its header written up to the id: the
   * length prefix too when batching (the pipeline then has no prepender), the id's place only
   * otherwise.
   */
  private ByteBuf newRequest(int payloadLength) {
    ByteBuf request;
    if (batching) {
      request = channel.alloc().buffer(8 + payloadLength);
      request.writeInt(4 + payloadLength);
    } else {
      request = channel.alloc().buffer(4 + payloadLength);
    }
    request.writeInt(0);
    return request;
  }

  /** Stamps a new id into {@code request}'s id field, sends it and waits for the reply. */
  private byte[] call(ByteBuf request) {
    int id = ids.incrementAndGet();
    CompletableFuture<byte[]> reply = new CompletableFuture<>();
    pending.put(id, reply);
    Throwable gone = closed;
    if (gone != null) {
      // The connection closed before this call was registered, so channelInactive missed it.
      request.release();
      fail(id, gone);
    } else if (batching) {
      request.setInt(4, id);
      outbound.offer(request);
      scheduleDrain();
    } else {
      request.setInt(0, id);
      // Notified on the thread that completes the write: a call racing close() finds the event
      // loop stopped, and a listener run there could not be (Netty would log an ERROR).
      ChannelFuture write =
          channel.writeAndFlush(
              request, new DefaultChannelPromise(channel, ImmediateEventExecutor.INSTANCE));
      write.addListener(
          f -> {
            if (!f.isSuccess()) {
              fail(id, f.cause());
            }
          });
    }
    try {
      return reply.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      pending.remove(id);
      throw new IllegalStateException(
          "no reply to call " + id + " within " + TIMEOUT_SECONDS + " s", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("call " + id + " failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      pending.remove(id);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for call " + id, e);
    }
  }

  /** Schedules the drain task unless one is scheduled and has not started draining yet. */
  private void scheduleDrain() {
    if (drainScheduled.compareAndSet(false, true)) {
      try {
        channel.eventLoop().execute(drain);
      } catch (RejectedExecutionException e) {
        // The event loop is shut down: nothing will ever write or answer.
        failAll(new ClosedChannelException());
        releaseQueued();
      }
    }
  }

  /**
   * On the event loop: writes every queued frame, then flushes once. Frames queued while it runs
   * are written in the same turn; a frame queued after the queue was found empty either sees the
   * flag cleared and schedules the next task, or is picked up by the re-check below.
   */
  private void drain() {
    ByteBuf frame;
    while ((frame = outbound.poll()) != null) {
      // A failed write closes the channel (exceptionCaught), which fails every pending call.
      channel.write(frame, channel.voidPromise());
    }
    channel.flush();
    drainScheduled.set(false);
    if (!outbound.isEmpty()) {
      scheduleDrain();
    }
  }

  private void fail(int id, Throwable cause) {
    CompletableFuture<byte[]> reply = pending.remove(id);
    if (reply != null) {
      reply.completeExceptionally(cause);
    }
  }

  private void failAll(Throwable cause) {
    closed = cause;
    pending.keySet().forEach(id -> fail(id, cause));
  }

  private void releaseQueued() {
    ByteBuf frame;
    while ((frame = outbound.poll()) != null) {
      frame.release();
    }
  }

  /** Closes the connection, failing every pending call, and stops the event loop. */
  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    failAll(new ClosedChannelException());
    releaseQueued();
  }

  /**
   * Completes the pending call each reply belongs to; fails them all when the connection closes.
   */
  private final class ReplyHandler extends SimpleChannelInboundHandler<ByteBuf> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      int id = frame.readInt();
      CompletableFuture<byte[]> reply = pending.remove(id);
      if (reply != null) {
        reply.complete(ByteBufUtil.getBytes(frame));
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      failAll(new ClosedChannelException());
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
