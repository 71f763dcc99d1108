package io.rpcx.benchmarks.rpcx;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.benchmarks.model.Payloads;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The RPCX server side of {@link StreamService}: for each call, a cold publisher that emits the
 * same text {@code count} times, never more than its subscriber (RPCX, passing on the client's
 * credit) requested, as a user without Reactor writes one (the pattern of rpcx-examples' {@code
 * streamOrders}); with Reactor it would be {@code Flux.range(0, count).map(i -> text)} through
 * {@code FlowAdapters}. The text is built once per call, as the gRPC server builds its message.
 */
@RPCXServer(name = "streams")
public final class StreamServiceImpl implements StreamService {

  @Override
  public Flow.Publisher<String> texts(int count, int length) {
    if (count < 0 || length < 0) {
      throw new IllegalArgumentException(
          "count: " + count + ", length: " + length + " (expected: >= 0)");
    }
    String text = Payloads.text(length);
    return subscriber -> subscriber.onSubscribe(new Texts(subscriber, text, count));
  }

  /**
   * One subscriber's subscription: whichever thread raises the demand from zero emits, up to the
   * demand; a request made meanwhile (RPCX passing on credit from another thread, or from inside
   * {@code onNext}) only adds to the demand that thread then takes.
   */
  private static final class Texts implements Flow.Subscription {
    private final Flow.Subscriber<? super String> subscriber;
    private final String text;
    private final int count;
    private final AtomicLong demand = new AtomicLong();
    private volatile boolean cancelled;
    /** Elements emitted; only the emitting thread touches it (handed over through demand). */
    private int emitted;

    Texts(Flow.Subscriber<? super String> subscriber, String text, int count) {
      this.subscriber = subscriber;
      this.text = text;
      this.count = count;
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        cancelled = true;
        subscriber.onError(
            new IllegalArgumentException("request(" + n + "): n must be positive (rule 3.9)"));
        return;
      }
      if (demand.getAndAccumulate(n, Texts::addCapped) != 0) {
        return; // the thread emitting now takes it
      }
      long wanted = n;
      do {
        long sent = 0;
        while (sent < wanted && emitted < count) {
          if (cancelled) {
            return;
          }
          subscriber.onNext(text);
          emitted++;
          sent++;
        }
        if (emitted == count) {
          if (!cancelled) {
            cancelled = true;
            subscriber.onComplete();
          }
          return;
        }
        wanted = demand.addAndGet(-sent);
      } while (wanted != 0);
    }

    @Override
    public void cancel() {
      cancelled = true;
    }

    private static long addCapped(long current, long more) {
      long sum = current + more;
      return sum < 0 ? Long.MAX_VALUE : sum;
    }
  }
}
