package io.rpcx.testsuite;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.testsuite.ShapesService.Bean;
import io.rpcx.testsuite.ShapesService.Blob;
import io.rpcx.testsuite.ShapesService.Envelope;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import java.util.stream.Stream;

/** A service of bidirectional streams whose both sides a test can take over and watch. */
@RPCXClient(name = "chat")
public interface ChatService {

  /** Answers each line with itself: the server returns its stream argument as its result. */
  Flow.Publisher<String> echo(Flow.Publisher<String> lines);

  /** Answers each line with it in capitals and {@code suffix}, for a blocking caller. */
  Stream<String> shout(String suffix, Flow.Publisher<String> lines);

  Flow.Publisher<Bean> beans(Flow.Publisher<Bean> values);

  Flow.Publisher<Blob> blobs(Flow.Publisher<Blob> values);

  Flow.Publisher<Envelope> envelopes(Flow.Publisher<Envelope> values);

  Flow.Publisher<List<Blob>> blobLists(Flow.Publisher<List<Blob>> values);

  Flow.Publisher<Map<String, Blob>> blobMaps(Flow.Publisher<Map<String, Blob>> values);

  Flow.Publisher<byte[]> bytes(Flow.Publisher<byte[]> values);

  Flow.Publisher<String> strings(Flow.Publisher<String> values);

  /** Hands its stream argument to the test and answers with a {@link FeedService.Source}. */
  Flow.Publisher<Long> held(Flow.Publisher<Long> items);

  /** Ignores its argument and never emits; its own deadline ends it. */
  @Method(timeoutMillis = 300)
  Flow.Publisher<Long> expiring(Flow.Publisher<Long> items);

  /** One call of {@link #held}: its stream argument, and the publisher of its result. */
  record Held(Flow.Publisher<Long> items, FeedService.Source answers) {}

  /** The implementation; each test makes its own. */
  @RPCXServer(name = "chat")
  final class Impl implements ChatService {
    final BlockingQueue<Held> held = new LinkedBlockingQueue<>();
    final FeedService.Source expiring = new FeedService.Source(false);

    @Override
    public Flow.Publisher<String> echo(Flow.Publisher<String> lines) {
      return lines;
    }

    @Override
    public Stream<String> shout(String suffix, Flow.Publisher<String> lines) {
      throw new UnsupportedOperationException("the client's Stream form only");
    }

    @Override
    public Flow.Publisher<Bean> beans(Flow.Publisher<Bean> values) {
      return values;
    }

    @Override
    public Flow.Publisher<Blob> blobs(Flow.Publisher<Blob> values) {
      return values;
    }

    @Override
    public Flow.Publisher<Envelope> envelopes(Flow.Publisher<Envelope> values) {
      return values;
    }

    @Override
    public Flow.Publisher<List<Blob>> blobLists(Flow.Publisher<List<Blob>> values) {
      return values;
    }

    @Override
    public Flow.Publisher<Map<String, Blob>> blobMaps(Flow.Publisher<Map<String, Blob>> values) {
      return values;
    }

    @Override
    public Flow.Publisher<byte[]> bytes(Flow.Publisher<byte[]> values) {
      return values;
    }

    @Override
    public Flow.Publisher<String> strings(Flow.Publisher<String> values) {
      return values;
    }

    @Override
    public Flow.Publisher<Long> held(Flow.Publisher<Long> items) {
      Held call = new Held(items, new FeedService.Source(false));
      held.add(call);
      return call.answers();
    }

    @Override
    public Flow.Publisher<Long> expiring(Flow.Publisher<Long> items) {
      return expiring;
    }
  }

  /** The server of {@link #shout}, which returns a {@code Stream} for clients only. */
  @RPCXServer(name = "chat")
  final class Shouter implements Shouting {
    @Override
    public Flow.Publisher<String> shout(String suffix, Flow.Publisher<String> lines) {
      return map(lines, line -> line.toUpperCase() + suffix);
    }
  }

  /** {@link #shout} as the server declares it: the same method, returning a publisher. */
  @RPCXClient(name = "chat")
  interface Shouting {
    Flow.Publisher<String> shout(String suffix, Flow.Publisher<String> lines);
  }

  /** Each element of {@code source} through {@code f}, at the pace of the subscriber. */
  static <T, R> Flow.Publisher<R> map(Flow.Publisher<T> source, Function<T, R> f) {
    return subscriber ->
        source.subscribe(
            new Flow.Subscriber<T>() {
              @Override
              public void onSubscribe(Flow.Subscription subscription) {
                subscriber.onSubscribe(subscription);
              }

              @Override
              public void onNext(T item) {
                subscriber.onNext(f.apply(item));
              }

              @Override
              public void onError(Throwable throwable) {
                subscriber.onError(throwable);
              }

              @Override
              public void onComplete() {
                subscriber.onComplete();
              }
            });
  }
}
