package io.rpcx.core.internal.stream;

import java.util.Iterator;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A {@code java.util.stream.Stream} returned by an implementation, read as a publisher: on the
 * thread that requests, no further than requested, and closed when it ends or is cancelled. One
 * subscriber, once (the {@link StreamSender} of its call).
 */
public final class StreamPublisher implements Flow.Publisher<Object>, Flow.Subscription {
  private final Stream<Object> stream;
  private final Iterator<Object> iterator;
  private final AtomicLong demand = new AtomicLong();
  private volatile boolean cancelled;
  private Flow.Subscriber<? super Object> subscriber;

  public StreamPublisher(Stream<Object> stream) {
    this.stream = stream;
    this.iterator = stream.iterator();
  }

  @Override
  public void subscribe(Flow.Subscriber<? super Object> subscriber) {
    this.subscriber = subscriber;
    subscriber.onSubscribe(this);
  }

  @Override
  public void request(long n) {
    if (n <= 0) {
      cancel();
      subscriber.onError(new IllegalArgumentException("request(" + n + "): n must be positive"));
      return;
    }
    if (demand.getAndAdd(n) != 0) {
      return; // the thread emitting now takes it
    }
    long emitted = 0;
    while (true) {
      long wanted = demand.get();
      while (emitted < wanted) {
        if (cancelled) {
          return;
        }
        boolean more;
        Object next;
        try {
          more = iterator.hasNext();
          next = more ? iterator.next() : null;
        } catch (RuntimeException e) {
          cancel();
          subscriber.onError(e);
          return;
        }
        if (!more) {
          cancel();
          subscriber.onComplete();
          return;
        }
        subscriber.onNext(next);
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
    if (!cancelled) {
      cancelled = true;
      stream.close();
    }
  }
}
