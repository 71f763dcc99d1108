package io.rpcx.benchmarks.rpcx;

import io.rpcx.annotation.NonBlocking;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.benchmarks.api.BenchmarkServiceImpl;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;

/**
 * The RPCX server side of the benchmark service: publishes {@link BenchService} under the name
 * {@code bench} and runs the logic every system shares ({@link BenchmarkServiceImpl}).
 */
@RPCXServer(name = "bench")
public class BenchServiceImpl implements BenchService {
  private final BenchmarkServiceImpl logic = new BenchmarkServiceImpl();

  @Override
  public String echo(String text) {
    return logic.echo(text);
  }

  @Override
  public OrderInfo loadOrder(OrderInfo order) {
    return logic.loadOrder(order);
  }

  @Override
  public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
    return logic.loadOrders(orders);
  }

  @Override
  public byte[] echoBytes(byte[] data) {
    return logic.echoBytes(data);
  }

  @Override
  public Message create(Message message) {
    return logic.create(message);
  }

  @Override
  public boolean update(long id, Message message) {
    return logic.update(id, message);
  }

  @Override
  public Message findById(long id) {
    return logic.findById(id);
  }

  @Override
  public boolean remove(long id) {
    return logic.remove(id);
  }

  /**
   * The same methods, declared never to block: the server runs them on the network thread that
   * read their request, with no hand-off (system {@code rpcx-nonblocking}). Published as {@code
   * bench} by name ({@code @RPCXServer} is not inherited).
   */
  @NonBlocking
  public static final class OnEventLoop extends BenchServiceImpl {}
}
