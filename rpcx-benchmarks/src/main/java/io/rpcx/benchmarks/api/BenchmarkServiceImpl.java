package io.rpcx.benchmarks.api;

import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.MessageStore;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;

/**
 * The server-side logic shared by every system: echoes return their argument as received (the
 * server does no work beyond deserializing and serializing, as in seed 004), CRUD calls go to one
 * {@link MessageStore} per server.
 *
 * <p>Thread-safe: one instance serves all connections of a server.
 */
public final class BenchmarkServiceImpl implements BenchmarkService {
  private final MessageStore store = new MessageStore();

  @Override
  public String echo(String text) {
    return text;
  }

  @Override
  public OrderInfo loadOrder(OrderInfo order) {
    return order;
  }

  @Override
  public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
    return orders;
  }

  @Override
  public byte[] echoBytes(byte[] data) {
    return data;
  }

  @Override
  public Message create(Message message) {
    return store.create(message);
  }

  @Override
  public boolean update(long id, Message message) {
    return store.update(id, message);
  }

  @Override
  public Message findById(long id) {
    return store.findById(id);
  }

  @Override
  public boolean remove(long id) {
    return store.remove(id);
  }
}
