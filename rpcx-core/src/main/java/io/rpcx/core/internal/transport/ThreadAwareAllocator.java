package io.rpcx.core.internal.transport;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.internal.PlatformDependent;

/**
 * The allocator of every RPCX channel ({@link Transports#ALLOCATOR}): platform threads allocate
 * from a {@link PooledByteBufAllocator} that gives each of them a thread-local cache, virtual
 * threads from an {@link AdaptiveByteBufAllocator} that gives them none.
 *
 * <p>Why two: frames are encoded on the thread that makes the call (client) or runs it (server),
 * and the pooled allocator's cache for every thread ({@code useCacheForAllThreads}) is what keeps
 * 32 platform callers from queueing on its arena locks. A virtual thread would get such a cache
 * too: a few KiB of per-size-class queues, a finalizer (Netty frees a cache when a thread that is
 * not its own {@code FastThreadLocalThread} is collected), and the buffers it returned held until
 * then; 1,000 virtual callers would hold 1,000 caches, and a server running each call on a new
 * virtual thread would make and abandon one per call. Netty 4.2's adaptive allocator keeps no
 * per-thread state for threads that are not Netty's own: a virtual thread takes its buffer from
 * one of a few shared magazines picked by its thread id. It pools buffers up to 1 MiB; larger
 * frames made on virtual threads take fresh memory.
 *
 * <p>A buffer goes back to the allocator that made it, whichever thread releases it. Thread-safe.
 */
final class ThreadAwareAllocator implements ByteBufAllocator {
  private final PooledByteBufAllocator platform;
  private final ByteBufAllocator virtual;

  ThreadAwareAllocator(PooledByteBufAllocator platform, ByteBufAllocator virtual) {
    this.platform = platform;
    this.virtual = virtual;
  }

  /** The pooled allocator of platform threads, for its metrics. */
  PooledByteBufAllocator platform() {
    return platform;
  }

  /** The allocator of the calling thread. */
  private ByteBufAllocator current() {
    Thread thread = Thread.currentThread();
    // Event loops (FastThreadLocalThreads) allocate most: they skip the virtual-thread check.
    if (thread instanceof FastThreadLocalThread || !PlatformDependent.isVirtualThread(thread)) {
      return platform;
    }
    return virtual;
  }

  @Override
  public ByteBuf buffer() {
    return current().buffer();
  }

  @Override
  public ByteBuf buffer(int initialCapacity) {
    return current().buffer(initialCapacity);
  }

  @Override
  public ByteBuf buffer(int initialCapacity, int maxCapacity) {
    return current().buffer(initialCapacity, maxCapacity);
  }

  @Override
  public ByteBuf ioBuffer() {
    return current().ioBuffer();
  }

  @Override
  public ByteBuf ioBuffer(int initialCapacity) {
    return current().ioBuffer(initialCapacity);
  }

  @Override
  public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
    return current().ioBuffer(initialCapacity, maxCapacity);
  }

  @Override
  public ByteBuf heapBuffer() {
    return current().heapBuffer();
  }

  @Override
  public ByteBuf heapBuffer(int initialCapacity) {
    return current().heapBuffer(initialCapacity);
  }

  @Override
  public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) {
    return current().heapBuffer(initialCapacity, maxCapacity);
  }

  @Override
  public ByteBuf directBuffer() {
    return current().directBuffer();
  }

  @Override
  public ByteBuf directBuffer(int initialCapacity) {
    return current().directBuffer(initialCapacity);
  }

  @Override
  public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
    return current().directBuffer(initialCapacity, maxCapacity);
  }

  @Override
  public CompositeByteBuf compositeBuffer() {
    return current().compositeBuffer();
  }

  @Override
  public CompositeByteBuf compositeBuffer(int maxNumComponents) {
    return current().compositeBuffer(maxNumComponents);
  }

  @Override
  public CompositeByteBuf compositeHeapBuffer() {
    return current().compositeHeapBuffer();
  }

  @Override
  public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
    return current().compositeHeapBuffer(maxNumComponents);
  }

  @Override
  public CompositeByteBuf compositeDirectBuffer() {
    return current().compositeDirectBuffer();
  }

  @Override
  public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
    return current().compositeDirectBuffer(maxNumComponents);
  }

  @Override
  public boolean isDirectBufferPooled() {
    return true; // both pool
  }

  @Override
  public int calculateNewCapacity(int minNewCapacity, int maxCapacity) {
    return platform.calculateNewCapacity(minNewCapacity, maxCapacity);
  }

  @Override
  public String toString() {
    return "ThreadAwareAllocator(platform threads: " + platform + ", virtual threads: " + virtual
        + ")";
  }
}
