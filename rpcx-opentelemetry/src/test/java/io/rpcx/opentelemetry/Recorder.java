package io.rpcx.opentelemetry;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** A subscriber of a stream call that requests {@code initial} elements and keeps what comes. */
final class Recorder<T> implements Flow.Subscriber<T> {
  /** How long a wait for a condition parks between looks. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  final List<T> items = new CopyOnWriteArrayList<>();
  /** Completes with the end: null, or the failure. */
  final CompletableFuture<Throwable> end = new CompletableFuture<>();
  private final long initial;
  private final long cancelAt;
  volatile Flow.Subscription subscription;

  Recorder(long initial) {
    this(initial, 0);
  }

  private Recorder(long initial, long cancelAt) {
    this.initial = initial;
    this.cancelAt = cancelAt;
  }

  /**
   * Requests {@code count} elements and cancels from within the {@code onNext} of the last: with a
   * client window of 1, no credit beyond them is ever granted.
   */
  static <T> Recorder<T> cancellingAfter(long count) {
    return new Recorder<>(count, count);
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(initial);
  }

  @Override
  public void onNext(T item) {
    items.add(item);
    if (items.size() == cancelAt) {
      subscription.cancel();
    }
  }

  @Override
  public void onError(Throwable failure) {
    end.complete(failure);
  }

  @Override
  public void onComplete() {
    end.complete(null);
  }

  /** Waits for the end and returns its failure, or null. */
  Throwable awaitEnd() throws Exception {
    return end.get(10, TimeUnit.SECONDS);
  }

  /** Waits until {@code count} elements have come. */
  void awaitItems(int count) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (items.size() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + items.size() + " of " + count + " elements came");
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }
}
