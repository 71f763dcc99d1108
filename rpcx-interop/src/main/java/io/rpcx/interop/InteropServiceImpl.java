package io.rpcx.interop;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.RpcxContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/** The implementation {@link InteropServer} publishes. */
@RPCXServer(name = "interop")
public final class InteropServiceImpl implements InteropService {
  private final AtomicInteger cancelledStreams = new AtomicInteger();
  private final BlockingQueue<String> cancellations = new LinkedBlockingQueue<>();
  /** A permit for each {@link #awaitCancel} call that is listening for its cancellation. */
  private final Semaphore listening = new Semaphore(0);

  /** How many streams this implementation sent were cancelled by their readers. */
  public int cancelledStreams() {
    return cancelledStreams.get();
  }

  /**
   * The reason the next {@link #awaitCancel} call was cancelled for, waiting for it at most 10 s;
   * {@code null} if none was.
   */
  public String nextCancellation() throws InterruptedException {
    return cancellations.poll(10, TimeUnit.SECONDS);
  }

  /**
   * Waits, at most 10 s, until an {@link #awaitCancel} call runs and listens for its cancellation
   * (one cancelled before its implementation ran never runs it); returns whether one did.
   */
  public boolean awaitListening() throws InterruptedException {
    return listening.tryAcquire(10, TimeUnit.SECONDS);
  }

  @Override
  public String awaitCancel(long millis) {
    RpcxContext call = RpcxContext.current();
    CountDownLatch cancelled = new CountDownLatch(1);
    RpcxContext.Registration registration = call.onCancel(cancelled::countDown);
    listening.release();
    try {
      if (cancelled.await(millis, TimeUnit.MILLISECONDS)) {
        cancellations.add(call.cancellationReason().orElse("(no reason)"));
        return "cancelled";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      registration.close();
    }
    return "not cancelled";
  }

  @Override
  public String echo(String text) {
    return text;
  }

  @Override
  public long echoLong(long value) {
    return value;
  }

  @Override
  public boolean echoBoolean(boolean value) {
    return value;
  }

  @Override
  public Integer echoBoxed(Integer value) {
    return value;
  }

  @Override
  public byte[] echoBytes(byte[] data) {
    return data;
  }

  @Override
  public Item echoItem(Item item) {
    return item;
  }

  @Override
  public Shelf echoShelf(Shelf shelf) {
    return shelf;
  }

  @Override
  public List<Item> echoItems(List<Item> items) {
    return items;
  }

  @Override
  public Map<String, Integer> echoMap(Map<String, Integer> counts) {
    return counts;
  }

  @Override
  public long add(int a, long b) {
    return a + b;
  }

  @Override
  public byte[] bytesOfSize(int size) {
    byte[] data = new byte[size];
    for (int i = 0; i < size; i++) {
      data[i] = (byte) i;
    }
    return data;
  }

  @Override
  public String metadata(String key) {
    return RpcxContext.current().metadata().get(key);
  }

  @Override
  public long remainingMillis() {
    return RpcxContext.current().timeRemaining().map(Duration::toMillis).orElse(-1L);
  }

  @Override
  public String sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "slept";
  }

  @Override
  public void failDeclared(String message) throws InteropException {
    throw new InteropException(message);
  }

  @Override
  public CompletableFuture<String> upperLater(String text) {
    return CompletableFuture.supplyAsync(text::toUpperCase);
  }

  @Override
  public Flow.Publisher<Item> count(int count) {
    return new Generated<>(cancelledStreams, count, Item::of, null);
  }

  @Override
  public Flow.Publisher<byte[]> chunks(int chunkSize, long total) {
    long count = (total + chunkSize - 1) / chunkSize;
    return new Generated<>(
        cancelledStreams,
        count,
        i -> new byte[(int) Math.min(chunkSize, total - i * chunkSize)],
        null);
  }

  @Override
  public Flow.Publisher<Item> countThenFail(int count) {
    return new Generated<>(
        cancelledStreams, count, Item::of, new IllegalStateException("failed after " + count));
  }

  @Override
  public CompletableFuture<Long> sum(Flow.Publisher<Integer> numbers) {
    CompletableFuture<Long> sum = new CompletableFuture<>();
    numbers.subscribe(new Collector<Integer>(sum::completeExceptionally) {
      private long total;

      @Override
      void each(Integer number) {
        total += number;
      }

      @Override
      void end() {
        sum.complete(total);
      }
    });
    return sum;
  }

  @Override
  public CompletableFuture<String> join(String separator, Flow.Publisher<String> parts) {
    CompletableFuture<String> joined = new CompletableFuture<>();
    parts.subscribe(new Collector<String>(joined::completeExceptionally) {
      private final List<String> all = new ArrayList<>();

      @Override
      void each(String part) {
        all.add(part);
      }

      @Override
      void end() {
        joined.complete(String.join(separator, all));
      }
    });
    return joined;
  }

  @Override
  public CompletableFuture<Long> stall(Flow.Publisher<byte[]> chunks) {
    chunks.subscribe(
        new Flow.Subscriber<byte[]>() {
          @Override
          public void onSubscribe(Flow.Subscription subscription) {
            // never requests
          }

          @Override
          public void onNext(byte[] chunk) {
            throw new IllegalStateException("an element nobody requested");
          }

          @Override
          public void onError(Throwable failure) {}

          @Override
          public void onComplete() {}
        });
    return new CompletableFuture<>();
  }

  @Override
  public Flow.Publisher<String> upper(Flow.Publisher<String> texts) {
    return subscriber ->
        texts.subscribe(
            new Flow.Subscriber<String>() {
              @Override
              public void onSubscribe(Flow.Subscription subscription) {
                subscriber.onSubscribe(subscription); // demand passes straight through
              }

              @Override
              public void onNext(String text) {
                subscriber.onNext(text.toUpperCase());
              }

              @Override
              public void onError(Throwable failure) {
                subscriber.onError(failure);
              }

              @Override
              public void onComplete() {
                subscriber.onComplete();
              }
            });
  }

  /** Takes every element of a stream argument, asking for them as it goes. */
  private abstract static class Collector<T> implements Flow.Subscriber<T> {
    private final Consumer<Throwable> failed;
    private Flow.Subscription subscription;

    Collector(Consumer<Throwable> failed) {
      this.failed = failed;
    }

    abstract void each(T element);

    abstract void end();

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(16);
    }

    @Override
    public void onNext(T element) {
      each(element);
      subscription.request(1);
    }

    @Override
    public void onError(Throwable failure) {
      failed.accept(failure);
    }

    @Override
    public void onComplete() {
      end();
    }
  }

  /**
   * Elements {@code 0 .. count - 1} made by {@code element} as the subscriber asks for them (never
   * more), then completion, or {@code failure} if given.
   */
  private static final class Generated<T> implements Flow.Publisher<T> {
    private final AtomicInteger cancelled;
    private final long count;
    private final LongFunction<T> element;
    private final RuntimeException failure;

    Generated(
        AtomicInteger cancelled, long count, LongFunction<T> element, RuntimeException failure) {
      this.cancelled = cancelled;
      this.count = count;
      this.element = element;
      this.failure = failure;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
      subscriber.onSubscribe(
          new Flow.Subscription() {
            private final AtomicLong demand = new AtomicLong();
            private volatile boolean done;
            private long next;

            @Override
            public void request(long n) {
              if (n <= 0) {
                done = true;
                subscriber.onError(new IllegalArgumentException("request(" + n + ")"));
                return;
              }
              if (demand.getAndAdd(n) != 0) {
                return; // the thread already emitting takes it
              }
              do {
                long wanted = demand.get();
                long sent = 0;
                while (sent < wanted && next < count && !done) {
                  subscriber.onNext(element.apply(next++));
                  sent++;
                }
                if (next == count && !done) {
                  done = true;
                  if (failure != null) {
                    subscriber.onError(failure);
                  } else {
                    subscriber.onComplete();
                  }
                  return;
                }
                if (done || demand.addAndGet(-sent) == 0) {
                  return;
                }
              } while (true);
            }

            @Override
            public void cancel() {
              if (!done) {
                done = true;
                cancelled.incrementAndGet();
              }
            }
          });
    }
  }
}
