package io.rpcx.client.internal.call;

import io.rpcx.core.CancelledException;
import io.rpcx.core.internal.model.MethodModel;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A server stream for blocking callers: a {@code java.util.stream.Stream} whose iteration waits for
 * the elements, over the same {@link StreamCall} as a {@code Flow.Subscriber}. It requests {@link
 * #PREFETCH} elements ahead and more as they are consumed. Closing the stream cancels the call;
 * callers must close it (try-with-resources), above all when they stop early ({@code limit}, {@code
 * findFirst}), or the server keeps it open until its credit runs out or its deadline passes.
 * Failures are thrown from the terminal operation: an {@code RpcxException}, or the checked
 * exception the method declares. One thread iterates it, as with any stream.
 */
final class BlockingStream implements Flow.Subscriber<Object>, Iterator<Object> {
  static final int PREFETCH = 64;
  private static final int BATCH = PREFETCH / 2;
  private static final Object NULL = new Object();

  private final MethodModel model;
  private final BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
  private volatile Flow.Subscription subscription;
  private volatile boolean closed;
  private Object next;
  private boolean finished;
  private int consumed;

  private BlockingStream(MethodModel model) {
    this.model = model;
  }

  /** Subscribes to {@code publisher} and returns the stream of its elements. */
  static Stream<Object> of(Flow.Publisher<Object> publisher, MethodModel model) {
    BlockingStream iterator = new BlockingStream(model);
    publisher.subscribe(iterator);
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(iterator, Spliterator.ORDERED), false)
        .onClose(iterator::close);
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    if (closed) {
      subscription.cancel();
    } else {
      subscription.request(PREFETCH);
    }
  }

  @Override
  public void onNext(Object item) {
    signals.add(item == null ? NULL : item);
  }

  @Override
  public void onError(Throwable throwable) {
    signals.add(new Failure(throwable));
  }

  @Override
  public void onComplete() {
    signals.add(End.END);
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    if (finished) {
      return false;
    }
    Object signal;
    try {
      signal = signals.take();
    } catch (InterruptedException e) {
      close();
      finished = true;
      Thread.currentThread().interrupt();
      throw new CancelledException(
          "interrupted while waiting for the stream of " + model.displayName(), e);
    }
    if (signal == End.END) {
      finished = true;
      return false;
    }
    if (signal instanceof Failure failure) {
      finished = true;
      throw BlockingStream.<RuntimeException>sneaky(failure.cause);
    }
    next = signal;
    if (++consumed == BATCH) {
      consumed = 0;
      subscription.request(BATCH);
    }
    return true;
  }

  @Override
  public Object next() {
    if (!hasNext()) {
      throw new NoSuchElementException("the stream of " + model.displayName() + " has ended");
    }
    Object element = next;
    next = null;
    return element == NULL ? null : element;
  }

  /** Cancels the call, unless it has ended. */
  void close() {
    closed = true;
    Flow.Subscription current = subscription;
    if (current != null) {
      current.cancel();
    }
  }

  /** Throws a checked exception the method declares as it is, like the proxy of a blocking call. */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable failure) throws T {
    throw (T) failure;
  }

  private enum End {
    END
  }

  private record Failure(Throwable cause) {}
}
