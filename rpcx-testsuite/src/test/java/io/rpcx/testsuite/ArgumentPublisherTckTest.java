package io.rpcx.testsuite;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.IHookCallBack;
import org.testng.IHookable;
import org.testng.ITestResult;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/**
 * The {@code Flow.Publisher} a server's implementation receives for its stream argument passes the
 * Reactive Streams TCK, as the client's publisher of a server stream does ({@link
 * RemotePublisherTckTest}): both are the same receiving half of a stream. Every publisher under
 * test is the stream argument of a real call from an RPCX client (in-process), carrying the number
 * of elements the TCK asks for, handed by the implementation to the test; the call ends when the
 * TCK's subscriber is done with it. The failed publisher is the argument of a call whose client
 * publisher fails once the implementation has it (the client cancels the call): it fails its
 * subscriber before any request.
 */
public class ArgumentPublisherTckTest extends FlowPublisherVerification<Long> implements IHookable {
  private static final AtomicInteger NAMES = new AtomicInteger();

  /** Takes a stream of numbers; answers when the test says the stream was consumed. */
  @RPCXClient(name = "tck-arguments")
  public interface Sink {
    @Method(timeoutMillis = 60_000)
    CompletableFuture<Long> take(Flow.Publisher<Long> numbers);
  }

  /** A stream argument the implementation received, and the reply that ends its call. */
  record Received(Flow.Publisher<Long> numbers, CompletableFuture<Long> reply) {}

  /** Hands every stream argument to the test. */
  @RPCXServer(name = "tck-arguments")
  public static final class SinkImpl implements Sink {
    final BlockingQueue<Received> received = new LinkedBlockingQueue<>();

    @Override
    public CompletableFuture<Long> take(Flow.Publisher<Long> numbers) {
      CompletableFuture<Long> reply = new CompletableFuture<>();
      received.add(new Received(numbers, reply));
      return reply;
    }
  }

  private final SinkImpl implementation = new SinkImpl();
  private RpcxServer server;
  private RpcxClient client;
  private Sink sink;
  private ScheduledExecutorService watchdog;

  public ArgumentPublisherTckTest() {
    // As RemotePublisherTckTest: signals awaited up to 2 s, absent ones watched for 100 ms.
    super(new TestEnvironment(2_000, 100, 500), 1_000);
  }

  @BeforeClass
  public void start() {
    watchdog = Executors.newSingleThreadScheduledExecutor();
    String name = "tck-arguments-" + NAMES.incrementAndGet();
    server = RpcxServer.builder().service(implementation).inProcess(name).build().start();
    client = RpcxClient.builder().inProcess(name).build();
    sink = client.create(Sink.class);
  }

  @AfterClass(alwaysRun = true)
  public void stop() {
    watchdog.shutdownNow();
    client.close();
    server.close();
  }

  /** Runs each test method, interrupting it if it is still running after the timeout. */
  @Override
  public void run(IHookCallBack test, ITestResult result) {
    Thread runner = Thread.currentThread();
    var alarm =
        watchdog.schedule(
            runner::interrupt, RemotePublisherTckTest.TEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    try {
      test.runTestMethod(result);
    } finally {
      alarm.cancel(false);
      Thread.interrupted(); // an interrupt of this test must not reach the next
    }
  }

  @Override
  public Flow.Publisher<Long> createFlowPublisher(long elements) {
    return received(new RemotePublisherTckTest.Range(elements));
  }

  @Override
  public Flow.Publisher<Long> createFailedFlowPublisher() {
    CompletableFuture<Flow.Subscriber<? super Long>> uploading = new CompletableFuture<>();
    Flow.Publisher<Long> failed =
        received(
            subscriber -> {
              subscriber.onSubscribe(
                  new Flow.Subscription() {
                    @Override
                    public void request(long n) {}

                    @Override
                    public void cancel() {}
                  });
              uploading.complete(subscriber);
            });
    // The call reached the implementation: now the client's publisher fails, which cancels it.
    uploading.join().onError(new IllegalStateException("no numbers today"));
    return failed;
  }

  /**
   * The publisher the server's implementation gets when a client calls with {@code numbers}; its
   * call ends once its subscriber completes, fails or cancels.
   */
  private Flow.Publisher<Long> received(Flow.Publisher<Long> numbers) {
    sink.take(numbers);
    Received call;
    try {
      call = implementation.received.poll(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for the call", e);
    }
    if (call == null) {
      throw new IllegalStateException("the call did not reach the implementation in 5 s");
    }
    return subscriber ->
        call.numbers()
            .subscribe(
                new EndsCall<>(Objects.requireNonNull(subscriber, "subscriber"), call.reply()));
  }

  /** Passes every signal on, and ends the call when its subscriber is done with the stream. */
  private record EndsCall<T>(Flow.Subscriber<? super T> subscriber, CompletableFuture<Long> reply)
      implements Flow.Subscriber<T> {
    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscriber.onSubscribe(
          new Flow.Subscription() {
            @Override
            public void request(long n) {
              subscription.request(n);
            }

            @Override
            public void cancel() {
              subscription.cancel();
              reply.complete(0L);
            }
          });
    }

    @Override
    public void onNext(T item) {
      subscriber.onNext(item);
    }

    @Override
    public void onError(Throwable failure) {
      subscriber.onError(failure);
      reply.complete(0L);
    }

    @Override
    public void onComplete() {
      subscriber.onComplete();
      reply.complete(0L);
    }
  }
}
