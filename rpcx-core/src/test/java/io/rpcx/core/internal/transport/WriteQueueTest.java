package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.local.LocalAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A write queue hands every write, from any number of threads, to its channel exactly once and
 * in each thread's order; it flushes once per batch (and at least every 128 writes of a long
 * one); it holds writes back until started; and once the event loop is gone every write queued,
 * however many threads race to queue them, is aborted exactly once instead of lost.
 */
@Timeout(30)
class WriteQueueTest {
  private EventLoopGroup group;
  private Channel server;
  private Channel channel;
  private final Outbound outbound = new Outbound();

  @BeforeEach
  void connect() throws InterruptedException {
    group = InProcess.newGroup(1, "write-queue-test");
    LocalAddress address = new LocalAddress("write-queue-test-" + System.nanoTime());
    server =
        InProcess.server(group, group)
            .childHandler(new ChannelInboundHandlerAdapter())
            .bind(address)
            .sync()
            .channel();
    channel = InProcess.client(group).handler(outbound).connect(address).sync().channel();
  }

  @AfterEach
  void close() {
    if (group == null) {
      return;
    }
    if (!group.isShuttingDown()) { // one test stops the event loop itself
      if (channel != null) {
        channel.close().syncUninterruptibly();
      }
      if (server != null) {
        server.close().syncUninterruptibly();
      }
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void everyWriteOfEveryThreadReachesTheChannelOnceInThatThreadsOrder() throws Exception {
    WriteQueue queue = new WriteQueue(channel, true);
    int threads = 8;
    int perThread = 5_000;
    List<Thread> producers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int producer = t;
      producers.add(
          new Thread(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  queue.enqueue(new Recorded(producer, i));
                }
              }));
    }
    producers.forEach(Thread::start);
    for (Thread producer : producers) {
      producer.join();
    }
    outbound.awaitWrites(threads * perThread);

    Map<Integer, Integer> next = new HashMap<>();
    for (Recorded write : outbound.written) {
      int expected = next.getOrDefault(write.producer, 0);
      assertEquals(expected, write.sequence, "producer " + write.producer + "'s order");
      next.put(write.producer, expected + 1);
    }
    assertEquals(threads * perThread, outbound.written.size());
  }

  @Test
  void writesQueuedWhileTheLoopIsBusyGoOutInOneBatchFlushedEvery128() throws Exception {
    WriteQueue queue = new WriteQueue(channel, true);
    CountDownLatch busy = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    channel.eventLoop().execute(() -> await(busy, release));
    int before;
    try {
      assertTrue(busy.await(10, TimeUnit.SECONDS));
      before = outbound.flushes.get();
      for (int i = 0; i < 300; i++) {
        queue.enqueue(new Recorded(0, i));
      }
    } finally {
      release.countDown();
    }
    outbound.awaitWrites(300);
    runOnLoop(() -> {}); // the drain's last flush has happened

    assertEquals(3, outbound.flushes.get() - before, "flushes after 128, 256 and the last write");
  }

  @Test
  void nothingIsWrittenBeforeStartAndEverythingQueuedIsWrittenAfter() throws Exception {
    WriteQueue queue = new WriteQueue(channel, false);
    for (int i = 0; i < 3; i++) {
      queue.enqueue(new Recorded(0, i));
    }
    runOnLoop(() -> {});
    assertEquals(0, outbound.written.size());

    queue.start();
    outbound.awaitWrites(3); // those queued before start, with nothing new to trigger a drain
    queue.start(); // again: nothing more
    queue.enqueue(new Recorded(0, 3));
    outbound.awaitWrites(1);
    runOnLoop(() -> {});
    for (int i = 0; i < 4; i++) {
      assertEquals(i, outbound.written.get(i).sequence);
    }
    assertEquals(4, outbound.written.size());
  }

  @Test
  void onceTheEventLoopIsGoneEveryQueuedWriteIsAbortedExactlyOnce() throws Exception {
    WriteQueue queue = new WriteQueue(channel, false);
    AtomicInteger aborted = new AtomicInteger();
    AtomicInteger written = new AtomicInteger();
    for (int i = 0; i < 10; i++) {
      queue.enqueue(new Counted(written, aborted));
    }
    channel.close().sync();
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();

    queue.start(); // the ten waiting are aborted
    assertEquals(10, aborted.get());

    int threads = 8;
    int perThread = 2_000;
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> producers = new ArrayList<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int t = 0; t < threads; t++) {
      Thread producer =
          new Thread(
              () -> {
                try {
                  go.await();
                  for (int i = 0; i < perThread; i++) {
                    queue.enqueue(new Counted(written, aborted));
                  }
                } catch (Throwable e) {
                  failure.set(e);
                }
              });
      producers.add(producer);
      producer.start();
    }
    go.countDown();
    for (Thread producer : producers) {
      producer.join();
    }

    assertEquals(null, failure.get());
    assertEquals(0, written.get());
    assertEquals(10 + threads * perThread, aborted.get());
  }

  private void runOnLoop(Runnable task) throws Exception {
    channel.eventLoop().submit(task).get(10, TimeUnit.SECONDS);
  }

  private static void await(CountDownLatch busy, CountDownLatch release) {
    busy.countDown();
    try {
      release.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A write that records itself instead of writing bytes. */
  private static final class Recorded implements QueuedWrite {
    final int producer;
    final int sequence;

    Recorded(int producer, int sequence) {
      this.producer = producer;
      this.sequence = sequence;
    }

    @Override
    public void writeTo(Channel channel) {
      channel.write(this, channel.voidPromise());
    }

    @Override
    public void abort(Throwable cause) {
      throw new AssertionError("aborted while the event loop runs", cause);
    }
  }

  /** A write that counts whether it was written or aborted. */
  private static final class Counted implements QueuedWrite {
    private final AtomicInteger written;
    private final AtomicInteger aborted;

    Counted(AtomicInteger written, AtomicInteger aborted) {
      this.written = written;
      this.aborted = aborted;
    }

    @Override
    public void writeTo(Channel channel) {
      written.incrementAndGet();
    }

    @Override
    public void abort(Throwable cause) {
      aborted.incrementAndGet();
    }
  }

  /** The channel's outbound end: keeps the writes it is given and counts flushes. */
  private static final class Outbound extends ChannelOutboundHandlerAdapter {
    final List<Recorded> written = new ArrayList<>(); // on the event loop only
    final AtomicInteger flushes = new AtomicInteger();
    private final Semaphore arrived = new Semaphore(0);

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      written.add((Recorded) msg);
      arrived.release();
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
      flushes.incrementAndGet();
    }

    /** Waits until {@code expected} more writes have arrived than were awaited before. */
    void awaitWrites(int expected) throws InterruptedException {
      assertTrue(
          arrived.tryAcquire(expected, 20, TimeUnit.SECONDS),
          "only " + arrived.availablePermits() + " of " + expected + " writes reached the channel");
    }
  }
}
