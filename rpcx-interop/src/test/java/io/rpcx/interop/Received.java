package io.rpcx.interop;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A subscriber of a stream RPCX's client receives, recording its elements and its end; it requests
 * {@code initial} elements, and more only when a test asks ({@link #request}).
 */
final class Received<T> implements Flow.Subscriber<T> {
  final List<T> items = new CopyOnWriteArrayList<>();
  /** Completes with the elements, or with the stream's failure. */
  final CompletableFuture<List<T>> end = new CompletableFuture<>();
  private final long initial;
  private volatile Flow.Subscription subscription;

  private Received(long initial) {
    this.initial = initial;
  }

  /** Subscribes to {@code publisher}, requesting {@code initial} elements. */
  static <T> Received<T> of(Flow.Publisher<T> publisher, long initial) {
    Received<T> received = new Received<>(initial);
    publisher.subscribe(received);
    return received;
  }

  /** Every element of {@code publisher}, requested without limit. */
  static <T> List<T> all(Flow.Publisher<T> publisher) throws Exception {
    return of(publisher, Long.MAX_VALUE).await();
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(initial);
  }

  @Override
  public void onNext(T item) {
    items.add(item);
  }

  @Override
  public void onError(Throwable failure) {
    end.completeExceptionally(failure);
  }

  @Override
  public void onComplete() {
    end.complete(List.copyOf(items));
  }

  void request(long n) {
    subscription.request(n);
  }

  void cancel() {
    subscription.cancel();
  }

  /** The elements, once the stream completed; its failure (unwrapped) if it failed. */
  List<T> await() throws Exception {
    try {
      return end.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw (Exception) e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("the stream did not end within 30 s; got " + items.size(), e);
    }
  }

  /** The failure the stream ended with. */
  Throwable failure() throws Exception {
    try {
      List<T> got = end.get(30, TimeUnit.SECONDS);
      throw new AssertionError("the stream completed with " + got.size() + " elements");
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }
}
