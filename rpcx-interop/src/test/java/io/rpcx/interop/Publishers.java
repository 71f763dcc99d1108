package io.rpcx.interop;

import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Publishers of stream arguments, emitting only as asked. */
final class Publishers {
  private Publishers() {}

  /** Emits {@code list} as it is requested, then completes. */
  static <T> Flow.Publisher<T> of(List<T> list) {
    return subscriber ->
        subscriber.onSubscribe(
            new Flow.Subscription() {
              private final AtomicLong demand = new AtomicLong();
              private volatile boolean cancelled;
              private int next;

              @Override
              public void request(long n) {
                if (demand.getAndAdd(n) != 0) {
                  return; // the emitting thread takes it
                }
                do {
                  long wanted = demand.get();
                  long sent = 0;
                  while (sent < wanted && next < list.size() && !cancelled) {
                    subscriber.onNext(list.get(next++));
                    sent++;
                  }
                  if (next == list.size() && !cancelled) {
                    cancelled = true;
                    subscriber.onComplete();
                    return;
                  }
                  if (cancelled || demand.addAndGet(-sent) == 0) {
                    return;
                  }
                } while (true);
              }

              @Override
              public void cancel() {
                cancelled = true;
              }
            });
  }

  /** Never emits nor ends; {@code cancelled} is set when its subscriber cancels. */
  static <T> Flow.Publisher<T> never(AtomicBoolean cancelled) {
    return subscriber ->
        subscriber.onSubscribe(
            new Flow.Subscription() {
              @Override
              public void request(long n) {}

              @Override
              public void cancel() {
                cancelled.set(true);
              }
            });
  }
}
