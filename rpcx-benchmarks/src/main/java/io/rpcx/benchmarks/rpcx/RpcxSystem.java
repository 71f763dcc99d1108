package io.rpcx.benchmarks.rpcx;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.util.List;

/**
 * RPCX itself: an {@link RpcxServer} on 127.0.0.1 at an ephemeral port publishing {@link
 * BenchServiceImpl}, and an {@link RpcxClient} proxy of {@link BenchService} shared by all threads,
 * with RPCX's defaults for everything else (Netty transport, protobuf envelope, its own POJO
 * codec).

 */
public final class RpcxSystem implements BenchmarkSystem {

  @Override
  public String name() {
    return "rpcx";
  }

  @Override
  public String description() {
    return "RPCX "
        + Versions.get("rpcx")
        + ", protobuf over Netty "
        + Versions.get("netty")
        + ", dynamic proxy client, default settings";
  }

  @Override
  public boolean supports(Workload workload) {
    return true;
  }

  @Override
  public BenchmarkServer startServer() throws Exception {
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new BenchServiceImpl())
            .build()
            .start();
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
  public BenchmarkClient connect(int port) {
    RpcxClient client = RpcxClient.builder().target("127.0.0.1", port).build();
    return new Client(client.create(BenchService.class), client);
  }

  /** Delegates to the RPCX proxy; closing closes the client. */
  private static final class Client implements BenchmarkClient {
    private final BenchService service;
    private final RpcxClient client;

    Client(BenchService service, RpcxClient client) {
      this.service = service;
      this.client = client;
    }

    @Override
    public String echo(String text) {
      return service.echo(text);
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      return service.loadOrder(order);
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      return service.loadOrders(orders);
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      return service.echoBytes(data);
    }

    @Override
    public Message create(Message message) {
      return service.create(message);
    }

    @Override
    public boolean update(long id, Message message) {
      return service.update(id, message);
    }

    @Override
    public Message findById(long id) {
      return service.findById(id);
    }

    @Override
    public boolean remove(long id) {
      return service.remove(id);
    }

    @Override
    public void close() {
      try {
        client.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing the RPCX client failed", e);
      }
    }
  }
}
