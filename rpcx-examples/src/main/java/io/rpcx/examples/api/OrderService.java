package io.rpcx.examples.api;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * The order service of the Dubbo benchmark article (seed 004). The server returns what it is
 * given, so every transfer measures the framework and nothing else.
 */
@RPCXClient(name = "orders", address = "127.0.0.1", port = 9000, timeoutMillis = 10_000)
public interface OrderService {

  String sendStr(String text);

  OrderInfo loadOrder(OrderInfo order);

  List<OrderInfo> loadOrders(List<OrderInfo> orders);

  /** Published as "findOrder": the Java and published names may differ. */
  @Method("findOrder")
  OrderInfo find(long orderId) throws OrderNotFoundException;

  /**
   * A server stream: {@code count} sample orders, sent as the client's credit allows
   * (docs/STREAMING.md). The interface's timeout does not apply to a stream; this one has none.
   */
  Flow.Publisher<OrderInfo> streamOrders(int count);
}
