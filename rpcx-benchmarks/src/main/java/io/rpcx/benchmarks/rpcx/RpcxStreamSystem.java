package io.rpcx.benchmarks.rpcx;

import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.StreamClient;
import io.rpcx.benchmarks.api.StreamPayload;
import io.rpcx.benchmarks.api.StreamSystem;
import io.rpcx.benchmarks.api.StreamTally;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.concurrent.Flow;

/**
 * RPCX's server stream in the streaming benchmark: an {@link RpcxServer} publishing {@link
 * StreamServiceImpl} and an {@link RpcxClient} proxy of {@link StreamService}, both built as {@link
 * RpcxSystem} builds them for the unary benchmarks (127.0.0.1, port 0, RPCX's defaults, epoll where
 * RPCX picks it). Each {@link #connect client} stream subscribes to the publisher the proxy returns
 * with a {@link Flow.Subscriber} that requests {@value StreamClient#PREFETCH} elements, then
 * {@value StreamClient#REPLENISH} more each time it has taken that many, as Reactor's {@code
 * limitRate(128)} does; the credit on the wire is RPCX's own, reading ahead of the subscriber up
 * to its default window (1,024 messages, 4 MiB), as gRPC's transport window does for {@code
 * grpc-batch}. Signals come on the client's callback pool.
 *
 * <p>{@code rpcx-direct}: the server runs the implementation, and so its publisher, on the event
 * loop ({@link RpcxServer.Builder#directExecutor()}).
 */
public final class RpcxStreamSystem implements StreamSystem {
  private final boolean direct;

  private RpcxStreamSystem(boolean direct) {
    this.direct = direct;
  }

  /** RPCX with its defaults: the publisher runs on the server's worker pool. */
  public static RpcxStreamSystem withWorkerPool() {
    return new RpcxStreamSystem(false);
  }

  /** RPCX with the implementation and its publisher on the server's event loop. */
  public static RpcxStreamSystem onEventLoop() {
    return new RpcxStreamSystem(true);
  }

  @Override
  public String name() {
    return direct ? "rpcx-direct" : "rpcx";
  }

  @Override
  public String description() {
    return "RPCX " + Versions.get("rpcx") + ", Flow.Publisher<String> method over Netty "
        + Versions.get("netty") + ", "
        + (direct ? "publisher on the event loop" : "default settings")
        + ", subscriber requesting " + StreamClient.PREFETCH + " then " + StreamClient.REPLENISH
        + " at a time";
  }

  @Override
  public BenchmarkServer startServer() throws Exception {
    RpcxServer.Builder builder =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new StreamServiceImpl());
    if (direct) {
      builder.directExecutor();
    } else {
      builder.workerPool(); // as RpcxSystem's rpcx: the pool on every Java
    }
    RpcxServer server = builder.build().start();
    return new BenchmarkServer() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public void close() {
        try {
          server.stop();
        } catch (Exception e) {
          throw new IllegalStateException("stopping the RPCX server failed", e);
        }
      }
    };
  }

  @Override
  public StreamClient connect(int port) {
    RpcxClient client =
        RpcxClient.builder()
            .target("127.0.0.1", port)
            .defaultTimeout(Duration.ofSeconds(60))
            .build();
    StreamService service = client.create(StreamService.class);
    return new StreamClient() {
      @Override
      public long stream(int messages, StreamPayload payload) {
        StreamTally tally = new StreamTally(messages, payload.length());
        service.texts(messages, payload.length()).subscribe(new Consumer(tally));
        return tally.await();
      }

      @Override
      public void close() {
        try {
          client.close();
        } catch (Exception e) {
          throw new IllegalStateException("closing the RPCX client failed", e);
        }
      }
    };
  }

  /** Takes every element, requesting in batches; signals come one at a time (rule 1.3). */
  static final class Consumer implements Flow.Subscriber<String> {
    private final StreamTally tally;
    private Flow.Subscription subscription;
    private int taken;

    Consumer(StreamTally tally) {
      this.tally = tally;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(StreamClient.PREFETCH);
    }

    @Override
    public void onNext(String element) {
      if (!tally.accept(element.length())) {
        subscription.cancel();
        return;
      }
      if (++taken == StreamClient.REPLENISH) {
        taken = 0;
        subscription.request(StreamClient.REPLENISH);
      }
    }

    @Override
    public void onError(Throwable failure) {
      tally.failed(failure);
    }

    @Override
    public void onComplete() {
      tally.completed();
    }
  }
}
