package io.rpcx.examples.client;

import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Publishes the elements of an iterator as they are requested, on the thread that requests them,
 * then completes; each subscriber gets a fresh iterator. What {@code Flux.fromIterable} or {@code
 * Flowable.fromIterable} do for Reactor and RxJava users, for an example with no such library.
 */
final class IteratorPublisher<T> implements Flow.Publisher<T> {
  private final Supplier<? extends Iterator<? extends T>> iterators;

  IteratorPublisher(Supplier<? extends Iterator<? extends T>> iterators) {
    this.iterators = iterators;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super T> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber");
    subscriber.onSubscribe(new Emission<>(subscriber, iterators.get()));
  }

  /** One subscriber's subscription: emits on the requesting thread, one thread at a time. */
  private static final class Emission<T> implements Flow.Subscription {
    private final Flow.Subscriber<? super T> subscriber;
    private final Iterator<? extends T> elements;
    private final AtomicLong demand = new AtomicLong();
    private volatile boolean done;

    Emission(Flow.Subscriber<? super T> subscriber, Iterator<? extends T> elements) {
      this.subscriber = subscriber;
      this.elements = elements;
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        done = true;
        subscriber.onError(new IllegalArgumentException("request(" + n + "): n must be positive"));
        return;
      }
      if (demand.getAndAccumulate(n, (now, more) -> now + more < 0 ? Long.MAX_VALUE : now + more)
          != 0) {
        return; // the thread emitting now takes the new demand too
      }
      long emitted = 0;
      while (true) {
        long wanted = demand.get();
        while (emitted < wanted) {
          if (done) {
            return;
          }
          if (!elements.hasNext()) {
            done = true;
            subscriber.onComplete();
            return;
          }
          subscriber.onNext(elements.next());
          emitted++;
        }
        if (demand.addAndGet(-emitted) == 0) {
          return;
        }
        emitted = 0;
      }
    }

    @Override
    public void cancel() {
      done = true;
    }
  }
}
