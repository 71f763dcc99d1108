package io.rpcx.benchmarks.rpcx;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;

/**
 * The benchmark service as an RPCX interface: the same methods as {@link
 * io.rpcx.benchmarks.api.BenchmarkService}, declared here so RPCX sees them on an annotated
 * interface. POJO parameters ({@link OrderInfo}, {@link Message}) go through RPCX's own codec.
 */
@RPCXClient(name = "bench")
public interface BenchService {

  String echo(String text);

  OrderInfo loadOrder(OrderInfo order);

  List<OrderInfo> loadOrders(List<OrderInfo> orders);

  byte[] echoBytes(byte[] data);

  Message create(Message message);

  boolean update(long id, Message message);

  Message findById(long id);

  boolean remove(long id);
}
