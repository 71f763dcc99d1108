package io.rpcx.examples.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.examples.api.OrderInfo;
import io.rpcx.examples.api.OrderNotFoundException;
import io.rpcx.examples.api.OrderService;
import io.rpcx.examples.api.Samples;
import java.util.List;

/** Returns the orders it receives unchanged, like the service of seed 004. */
@RPCXServer(name = "orders")
public class OrderServiceImpl implements OrderService {

  @Override
  public String sendStr(String text) {
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
  public OrderInfo find(long orderId) throws OrderNotFoundException {
    if (orderId < 0) {
      throw new OrderNotFoundException("no order " + orderId);
    }
    return Samples.order((int) (orderId % 1000));
  }
}
