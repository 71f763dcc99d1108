package io.rpcx.benchmarks.netty;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;

/**
 * Raw Netty: a length-prefixed echo server on the event loop ({@link EchoServer}) and a client with
 * request-id correlation over one connection ({@link EchoClient}), on the transport RPCX picks
 * ({@link NettyTransport}). No serialization framework, no service dispatch, no thread hand-off,
 * nothing deserialized: the floor any framed RPC in Java stands on, on this machine.
 *
 * <p>Two systems:
 *
 * <ul>
 *   <li>{@code netty}, <b>the floor</b>: the client queues every caller's frame and one event-loop
 *       task writes all queued frames with one flush; the server echoes whole frames and flushes
 *       once per read batch.
 *   <li>{@code netty-flush-per-call}: the raw Netty baseline as measured before issue 18, each
 *       request written and flushed by its caller (the server still flushes once per read batch).
 *       A weaker baseline, kept so old figures can be reproduced; not the floor.
 * </ul>
 *
 * <p>Both carry strings (as UTF-8) and bytes only; the POJO workloads are not applicable and their
 * clients throw {@link UnsupportedOperationException} for them.
 */
public final class NettySystem implements BenchmarkSystem {
  private final boolean batching;

  private NettySystem(boolean batching) {
    this.batching = batching;
  }

  /** The floor: callers' requests written in batches, one flush per event-loop turn. */
  public static NettySystem batching() {
    return new NettySystem(true);
  }

  /** The labelled weaker variant: one flush per request. */
  public static NettySystem flushingPerCall() {
    return new NettySystem(false);
  }

  @Override
  public String name() {
    return batching ? "netty" : "netty-flush-per-call";
  }

  @Override
  public String description() {
    return "raw Netty "
        + Versions.get("netty")
        + " ("
        + NettyTransport.TRANSPORT.setting()
        + "), length-prefixed echo on the event loop, one connection, int request ids, "
        + (batching
            ? "all callers' requests written by one event-loop task, one flush per turn"
            : "each request flushed by its caller (not the floor)");
  }

  @Override
  public boolean supports(Workload workload) {
    return !workload.carriesObjects();
  }

  @Override
  public BenchmarkServer startServer() throws InterruptedException {
    return batching ? EchoServer.wholeFrames() : EchoServer.reframing();
  }

  @Override
  public BenchmarkClient connect(int port) throws InterruptedException {
    return new Client(
        batching ? EchoClient.batching(port) : EchoClient.flushingPerCall(port), name());
  }

  /** Strings and bytes go to the echo client; everything else is not applicable. */
  private static final class Client implements BenchmarkClient {
    private final EchoClient echo;
    private final String system;

    Client(EchoClient echo, String system) {
      this.echo = echo;
      this.system = system;
    }

    @Override
    public String echo(String text) {
      return echo.echo(text);
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      return echo.echo(data);
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      throw notApplicable("loadOrder");
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      throw notApplicable("loadOrders");
    }

    @Override
    public Message create(Message message) {
      throw notApplicable("create");
    }

    @Override
    public boolean update(long id, Message message) {
      throw notApplicable("update");
    }

    @Override
    public Message findById(long id) {
      throw notApplicable("findById");
    }

    @Override
    public boolean remove(long id) {
      throw notApplicable("remove");
    }

    @Override
    public void close() {
      echo.close();
    }

    private UnsupportedOperationException notApplicable(String method) {
      return new UnsupportedOperationException(
          system + ": " + method + " is not applicable (raw Netty only echoes strings and bytes)");
    }
  }
}
