package io.rpcx.testsuite;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/** A service of server streams whose publishers a test controls and watches. */
@RPCXClient(name = "feed")
public interface FeedService {

  /** {@code w0} … {@code w(count-1)}, then the end. */
  Flow.Publisher<String> words(int count);

  /** One string per size, {@link #sized} of it for the i-th, then the end. */
  Flow.Publisher<String> texts(java.util.List<Integer> sizes);

  /** One {@link ShapesService.Bean} (a class) per size, its data {@link #sized} bytes of it. */
  Flow.Publisher<ShapesService.Bean> beans(java.util.List<Integer> sizes);

  /** One {@link ShapesService.Blob} (a record) per size, its data {@link #sized} bytes of it. */
  Flow.Publisher<ShapesService.Blob> blobs(java.util.List<Integer> sizes);

  /** The text of the {@code index}-th element of {@code size} characters: its index, repeated. */
  static String sized(int index, int size) {
    char[] text = new char[size];
    java.util.Arrays.fill(text, (char) ('a' + index % 26));
    return new String(text);
  }

  /** The same, for a blocking caller; the server returns a {@code Stream} too. */
  Stream<String> lines(int count);

  /** 0, 1, 2, … without end, each as soon as it is requested: {@link Impl#counting}. */
  Flow.Publisher<Long> counting();

  /** 1, 2, 3, … without end, from a {@code Stream} the server reads as credit allows. */
  Stream<Long> numbers();

  /** Elements the test pushes: {@link Impl#held}. */
  Flow.Publisher<Long> held();

  /** {@code before} elements, then a failure: the declared exception or an unchecked one. */
  Flow.Publisher<String> failing(int before, boolean declared) throws FeedException;

  /** {@code before} lines, then an unchecked failure. */
  Stream<String> brokenLines(int before);

  /** Never emits; its own deadline ends it. */
  @Method(timeoutMillis = 300)
  Flow.Publisher<Long> expiring();

  /** {@code count} chunks of 1 MiB, chunk {@code i} filled with the byte {@code (byte) i}. */
  Flow.Publisher<byte[]> chunks(int count);

  /** A unary method beside the streams. */
  String echo(String text);

  /** The declared failure of {@link #failing}. */
  class FeedException extends Exception {
    private static final long serialVersionUID = 1L;

    public FeedException(String message) {
      super(message);
    }
  }

  /** A publisher the test watches: what it emitted, and whether it was cancelled. */
  final class Source implements Flow.Publisher<Long> {
    private final boolean emitOnRequest;
    final AtomicLong emitted = new AtomicLong();
    final CountDownLatch subscribed = new CountDownLatch(1);
    final CountDownLatch cancelled = new CountDownLatch(1);
    private final AtomicLong demand = new AtomicLong();
    private final AtomicReference<Flow.Subscriber<? super Long>> subscriber = new AtomicReference<>();
    private final AtomicBoolean stopped = new AtomicBoolean();

    /** Emits 0, 1, 2, … on request if {@code emitOnRequest}; else only what the test pushes. */
    Source(boolean emitOnRequest) {
      this.emitOnRequest = emitOnRequest;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super Long> s) {
      subscriber.set(s);
      s.onSubscribe(
          new Flow.Subscription() {
            @Override
            public void request(long n) {
              if (demand.getAndAdd(n) != 0 || !emitOnRequest) {
                return;
              }
              long done = 0;
              while (true) {
                long wanted = demand.get();
                while (done < wanted && !stopped.get()) {
                  s.onNext(emitted.getAndIncrement());
                  done++;
                }
                if (stopped.get() || demand.addAndGet(-done) == 0) {
                  return;
                }
                done = 0;
              }
            }

            @Override
            public void cancel() {
              stopped.set(true);
              cancelled.countDown();
            }
          });
      subscribed.countDown();
    }

    /** Requested by the server and not yet pushed. */
    long demand() {
      return demand.get();
    }

    void push(long value) {
      demand.decrementAndGet();
      emitted.incrementAndGet();
      subscriber.get().onNext(value);
    }

    void complete() {
      subscriber.get().onComplete();
    }
  }

  /** The implementation; each test makes its own. */
  @RPCXServer(name = "feed")
  final class Impl implements FeedService {
    final Source counting = new Source(true);
    final Source held = new Source(false);
    final Source expiring = new Source(false);
    final AtomicLong numbersEmitted = new AtomicLong();
    final CountDownLatch numbersClosed = new CountDownLatch(1);

    @Override
    public Flow.Publisher<String> words(int count) {
      return new ListPublisher<>(lines(count).toList(), null);
    }

    @Override
    public Flow.Publisher<String> texts(java.util.List<Integer> sizes) {
      return new ListPublisher<>(
          IntStream.range(0, sizes.size())
              .mapToObj(i -> FeedService.sized(i, sizes.get(i)))
              .toList(),
          null);
    }

    @Override
    public Flow.Publisher<ShapesService.Bean> beans(java.util.List<Integer> sizes) {
      return new ListPublisher<>(
          IntStream.range(0, sizes.size())
              .mapToObj(i -> new ShapesService.Bean("b" + i, bytes(i, sizes.get(i)), i))
              .toList(),
          null);
    }

    @Override
    public Flow.Publisher<ShapesService.Blob> blobs(java.util.List<Integer> sizes) {
      return new ListPublisher<>(
          IntStream.range(0, sizes.size())
              .mapToObj(i -> new ShapesService.Blob("r" + i, bytes(i, sizes.get(i)), i))
              .toList(),
          null);
    }

    private static byte[] bytes(int index, int size) {
      return FeedService.sized(index, size).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Override
    public Stream<String> lines(int count) {
      return IntStream.range(0, count).mapToObj(i -> "w" + i);
    }

    @Override
    public Flow.Publisher<Long> counting() {
      return counting;
    }

    @Override
    public Stream<Long> numbers() {
      AtomicLong next = new AtomicLong();
      return Stream.generate(
              () -> {
                numbersEmitted.incrementAndGet();
                return next.incrementAndGet();
              })
          .onClose(numbersClosed::countDown);
    }

    @Override
    public Flow.Publisher<Long> held() {
      return held;
    }

    @Override
    public Flow.Publisher<String> failing(int before, boolean declared) {
      Exception failure =
          declared ? new FeedException("no more news") : new IllegalStateException("boom");
      return new ListPublisher<>(lines(before).toList(), failure);
    }

    @Override
    public Stream<String> brokenLines(int before) {
      return IntStream.rangeClosed(0, before)
          .mapToObj(
              i -> {
                if (i == before) {
                  throw new IllegalStateException("no line " + i);
                }
                return "w" + i;
              });
    }

    @Override
    public Flow.Publisher<Long> expiring() {
      return expiring;
    }

    @Override
    public Flow.Publisher<byte[]> chunks(int count) {
      return subscriber ->
          new ListPublisher<>(
                  new java.util.AbstractList<byte[]>() {
                    @Override
                    public byte[] get(int index) {
                      byte[] chunk = new byte[1 << 20];
                      java.util.Arrays.fill(chunk, (byte) index);
                      return chunk;
                    }

                    @Override
                    public int size() {
                      return count;
                    }
                  },
                  null)
              .subscribe(subscriber);
    }

    @Override
    public String echo(String text) {
      return text;
    }
  }

  /** The elements of a list, as requested, then the end or {@code failure}. */
  final class ListPublisher<T> implements Flow.Publisher<T> {
    private final java.util.List<T> elements;
    private final Throwable failure;

    ListPublisher(java.util.List<T> elements, Throwable failure) {
      this.elements = elements;
      this.failure = failure;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> s) {
      AtomicLong demand = new AtomicLong();
      AtomicBoolean cancelled = new AtomicBoolean();
      int[] next = {0};
      s.onSubscribe(
          new Flow.Subscription() {
            @Override
            public void request(long n) {
              if (demand.getAndAdd(n) != 0) {
                return;
              }
              long done = 0;
              while (true) {
                long wanted = demand.get();
                while (done < wanted && next[0] < elements.size() && !cancelled.get()) {
                  s.onNext(elements.get(next[0]++));
                  done++;
                }
                if (next[0] == elements.size() && !cancelled.get()) {
                  cancelled.set(true);
                  if (failure == null) {
                    s.onComplete();
                  } else {
                    s.onError(failure);
                  }
                  return;
                }
                if (cancelled.get() || demand.addAndGet(-done) == 0) {
                  return;
                }
                done = 0;
              }
            }

            @Override
            public void cancel() {
              cancelled.set(true);
            }
          });
    }
  }
}
