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
 * request-id correlation over one connection ({@link EchoClient}). No serialization framework, no
 * service dispatch, no thread hand-off: the ceiling any framed RPC in Java can reach on this
 * machine.
 *
 * <p>It carries strings (as UTF-8) and bytes only; the POJO workloads are not applicable and its
 * client throws {@link UnsupportedOperationException} for them.
 */
public final class NettySystem implements BenchmarkSystem {

  @Override
  public String name() {
    return "netty";
  }

  @Override
  public String description() {
    return "raw Netty "
        + Versions.get("netty")
        + " ("
        + (NettyTransport.EPOLL ? "epoll" : "NIO")
        + "), length-prefixed echo on the event loop, one connection, int request ids";
  }

  @Override
  public boolean supports(Workload workload) {
    return !workload.carriesObjects();
  }

  @Override
  public BenchmarkServer startServer() throws InterruptedException {
    return new EchoServer();
  }

  @Override
  public BenchmarkClient connect(int port) throws InterruptedException {
    return new Client(new EchoClient(port));
  }

  /** Strings and bytes go to the echo client; everything else is not applicable. */
  private static final class Client implements BenchmarkClient {
    private final EchoClient echo;

    Client(EchoClient echo) {
      this.echo = echo;
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

    private static UnsupportedOperationException notApplicable(String method) {
      return new UnsupportedOperationException(
          "netty: " + method + " is not applicable (raw Netty only echoes strings and bytes)");
    }
  }
}
