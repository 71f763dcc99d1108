package io.rpcx.testsuite;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.testsuite.ShapesService.Bean;
import io.rpcx.testsuite.ShapesService.Blob;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;

/** A service of client streams whose stream arguments a test can take over and watch. */
@RPCXClient(name = "uploads")
public interface UploadService {

  /** Counts the words: a synchronous implementation, blocking its worker until the stream ends. */
  long count(String label, Flow.Publisher<String> words);

  /** Counts the words, asynchronously. */
  CompletableFuture<Long> countAsync(Flow.Publisher<String> words);

  /** The elements, as received. */
  CompletableFuture<List<Bean>> beans(Flow.Publisher<Bean> beans);

  /** The elements, as received, by a synchronous implementation. */
  List<Blob> blobs(Flow.Publisher<Blob> blobs);

  /** Hands its stream argument and its result to the test: {@link Impl#held}. */
  CompletableFuture<Long> held(Flow.Publisher<Long> items);

  /** Never subscribes to its argument nor ends; its own deadline ends it. */
  @Method(timeoutMillis = 300)
  CompletableFuture<Long> ignoring(Flow.Publisher<Long> items);

  /** The sum of the first three elements; returns while the client may still be streaming. */
  long firstThree(Flow.Publisher<Long> items);

  /** The bytes of {@code 1 MiB} chunks, chunk {@code i} filled with {@code (byte) i}, checked. */
  CompletableFuture<Long> upload(Flow.Publisher<byte[]> chunks);

  /** A unary method beside the streams. */
  String echo(String text);

  /** One call of {@link #held}: its stream argument, and the result the test completes. */
  record Held(Flow.Publisher<Long> items, CompletableFuture<Long> result) {}

  /** The implementation; each test makes its own. */
  @RPCXServer(name = "uploads")
  final class Impl implements UploadService {
    final BlockingQueue<Held> held = new LinkedBlockingQueue<>();
    final CompletableFuture<Flow.Publisher<Long>> ignored = new CompletableFuture<>();
    /** How each synchronous {@link #count} ended: its count, or the failure its subscriber got. */
    final BlockingQueue<Object> countOutcomes = new LinkedBlockingQueue<>();

    @Override
    public long count(String label, Flow.Publisher<String> words) {
      try {
        long count = Collect.all(words, 16).get().size();
        countOutcomes.add(count);
        return count;
      } catch (ExecutionException e) {
        countOutcomes.add(e.getCause());
        throw new IllegalStateException(label + ": " + e.getCause().getMessage(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public CompletableFuture<Long> countAsync(Flow.Publisher<String> words) {
      return Collect.all(words, Long.MAX_VALUE).thenApply(all -> (long) all.size());
    }

    @Override
    public CompletableFuture<List<Bean>> beans(Flow.Publisher<Bean> beans) {
      return Collect.all(beans, 4);
    }

    @Override
    public List<Blob> blobs(Flow.Publisher<Blob> blobs) {
      return Collect.all(blobs, 4).join();
    }

    @Override
    public CompletableFuture<Long> held(Flow.Publisher<Long> items) {
      Held call = new Held(items, new CompletableFuture<>());
      held.add(call);
      return call.result();
    }

    @Override
    public CompletableFuture<Long> ignoring(Flow.Publisher<Long> items) {
      ignored.complete(items);
      return new CompletableFuture<>();
    }

    @Override
    public long firstThree(Flow.Publisher<Long> items) {
      CompletableFuture<Long> sum = new CompletableFuture<>();
      items.subscribe(
          new Flow.Subscriber<Long>() {
            private Flow.Subscription subscription;
            private long total;
            private int seen;

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
              this.subscription = subscription;
              subscription.request(3);
            }

            @Override
            public void onNext(Long item) {
              total += item;
              if (++seen == 3) {
                subscription.cancel();
                sum.complete(total);
              }
            }

            @Override
            public void onError(Throwable failure) {
              sum.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
              sum.complete(total);
            }
          });
      return sum.join();
    }

    @Override
    public CompletableFuture<Long> upload(Flow.Publisher<byte[]> chunks) {
      CompletableFuture<Long> bytes = new CompletableFuture<>();
      chunks.subscribe(
          new Flow.Subscriber<byte[]>() {
            private Flow.Subscription subscription;
            private long total;
            private int index;

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
              this.subscription = subscription;
              subscription.request(16);
            }

            @Override
            public void onNext(byte[] chunk) {
              if (chunk.length != 1 << 20
                  || chunk[0] != (byte) index
                  || chunk[chunk.length - 1] != (byte) index) {
                subscription.cancel();
                bytes.completeExceptionally(new IllegalStateException("chunk " + index + " is wrong"));
                return;
              }
              index++;
              total += chunk.length;
              subscription.request(1);
            }

            @Override
            public void onError(Throwable failure) {
              bytes.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
              bytes.complete(total);
            }
          });
      return bytes;
    }

    @Override
    public String echo(String text) {
      return text;
    }
  }

  /** Collects every element, requesting {@code batch} at a time, into a list. */
  final class Collect<T> implements Flow.Subscriber<T> {
    private final List<T> elements = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<List<T>> done = new CompletableFuture<>();
    private final long batch;
    private Flow.Subscription subscription;
    private long left;

    private Collect(long batch) {
      this.batch = batch;
    }

    static <T> CompletableFuture<List<T>> all(Flow.Publisher<T> publisher, long batch) {
      Collect<T> collect = new Collect<>(batch);
      publisher.subscribe(collect);
      return collect.done;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      left = batch;
      subscription.request(batch);
    }

    @Override
    public void onNext(T item) {
      elements.add(item);
      if (batch != Long.MAX_VALUE && --left == 0) {
        left = batch;
        subscription.request(batch);
      }
    }

    @Override
    public void onError(Throwable failure) {
      done.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
      done.complete(List.copyOf(elements));
    }
  }
}
