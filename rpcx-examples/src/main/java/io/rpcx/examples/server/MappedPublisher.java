package io.rpcx.examples.server;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.function.Function;

/**
 * A publisher of {@code source}'s elements, each passed through {@code mapping}: one element out
 * for each element in, so the subscription (request and cancel) is the source's own. If {@code
 * mapping} throws, the source is cancelled and the subscriber gets the exception.
 */
final class MappedPublisher<T, R> implements Flow.Publisher<R> {
  private final Flow.Publisher<T> source;
  private final Function<? super T, ? extends R> mapping;

  MappedPublisher(Flow.Publisher<T> source, Function<? super T, ? extends R> mapping) {
    this.source = source;
    this.mapping = mapping;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super R> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber");
    source.subscribe(
        new Flow.Subscriber<T>() {
          private Flow.Subscription subscription;
          private boolean failed;

          @Override
          public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscriber.onSubscribe(subscription);
          }

          @Override
          public void onNext(T item) {
            if (failed) {
              return;
            }
            R mapped;
            try {
              mapped = mapping.apply(item);
            } catch (RuntimeException e) {
              failed = true;
              subscription.cancel();
              subscriber.onError(e);
              return;
            }
            subscriber.onNext(mapped);
          }

          @Override
          public void onError(Throwable failure) {
            if (!failed) {
              subscriber.onError(failure);
            }
          }

          @Override
          public void onComplete() {
            if (!failed) {
              subscriber.onComplete();
            }
          }
        });
  }
}
