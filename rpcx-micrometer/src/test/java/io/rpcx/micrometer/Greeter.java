package io.rpcx.micrometer;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.UnauthenticatedException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/** The service the module's tests observe. */
@RPCXClient(name = "greeter")
public interface Greeter {
  String hello(String name);

  String fail(String message);

  /** Refused by the server's second interceptor when {@code allowed} is false. */
  String guarded(boolean allowed);

  /** The server's view of the time left, in ms; -1 without a deadline. */
  @Method(timeoutMillis = 5_000)
  long remainingMillis();

  /** A server stream: {@code w0} … {@code w(count-1)}, then the end. */
  Flow.Publisher<String> words(int count);

  /** The same words for a blocking caller. */
  Stream<String> lines(int count);

  /** {@code before} words, then an {@code IllegalStateException}. */
  Flow.Publisher<String> wordsThenFail(int before);

  /** Words for as long as they are requested: the caller cancels. */
  Flow.Publisher<String> endless();

  /** The implementation. */
  @RPCXServer(name = "greeter")
  final class Impl implements Greeter {
    @Override
    public String hello(String name) {
      return "hello " + name;
    }

    @Override
    public String fail(String message) {
      throw new IllegalStateException(message);
    }

    @Override
    public String guarded(boolean allowed) {
      if (!allowed) {
        throw new UnauthenticatedException("not allowed");
      }
      return "in";
    }

    @Override
    public long remainingMillis() {
      return RpcxContext.current().timeRemaining().map(java.time.Duration::toMillis).orElse(-1L);
    }

    @Override
    public Flow.Publisher<String> words(int count) {
      return new Words(count, null);
    }

    @Override
    public Stream<String> lines(int count) {
      return IntStream.range(0, count).mapToObj(i -> "w" + i);
    }

    @Override
    public Flow.Publisher<String> wordsThenFail(int before) {
      return new Words(before, new IllegalStateException("no more words"));
    }

    @Override
    public Flow.Publisher<String> endless() {
      return new Words(Long.MAX_VALUE, null);
    }
  }

  /**
   * {@code w0} … {@code w(count-1)} as requested, then the end or {@code failure}; a request made
   * from {@code onNext} adds to the demand the running loop serves.
   */
  final class Words implements Flow.Publisher<String> {
    private final long count;
    private final Throwable failure;

    Words(long count, Throwable failure) {
      this.count = count;
      this.failure = failure;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super String> subscriber) {
      AtomicLong demand = new AtomicLong();
      AtomicBoolean done = new AtomicBoolean();
      long[] next = {0};
      subscriber.onSubscribe(
          new Flow.Subscription() {
            @Override
            public void request(long n) {
              if (demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b) != 0) {
                return;
              }
              long served = 0;
              while (true) {
                long wanted = demand.get();
                while (served < wanted && next[0] < count && !done.get()) {
                  subscriber.onNext("w" + next[0]++);
                  served++;
                }
                if (next[0] == count && done.compareAndSet(false, true)) {
                  if (failure == null) {
                    subscriber.onComplete();
                  } else {
                    subscriber.onError(failure);
                  }
                  return;
                }
                if (done.get() || demand.addAndGet(-served) == 0) {
                  return;
                }
                served = 0;
              }
            }

            @Override
            public void cancel() {
              done.set(true);
            }
          });
    }
  }

  /** A client's view of the greeter with a method the server does not publish. */
  @RPCXClient(name = "greeter")
  interface WithUnknownMethod {
    String goodbye(String name);
  }
}
