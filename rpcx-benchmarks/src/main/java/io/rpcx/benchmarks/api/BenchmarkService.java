package io.rpcx.benchmarks.api;

import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;

/**
 * The remote service every system exposes, in plain Java: the echo calls of seeds 002 and 004 and
 * the message CRUD of seed 001. The server side of every system runs {@link BenchmarkServiceImpl};
 * systems whose client is a Java proxy (Dubbo) use this interface directly.
 */
public interface BenchmarkService {

  /** Returns {@code text} unchanged. */
  String echo(String text);

  /** Returns {@code order} unchanged (after it has crossed the wire both ways). */
  OrderInfo loadOrder(OrderInfo order);

  /** Returns {@code orders} unchanged. */
  List<OrderInfo> loadOrders(List<OrderInfo> orders);

  /** Returns {@code data} unchanged. */
  byte[] echoBytes(byte[] data);

  /** Stores {@code message} under a new id and returns it with that id. */
  Message create(Message message);

  /** Replaces message {@code id}; false if there is no such message. */
  boolean update(long id, Message message);

  /** Message {@code id}, or {@code null} if there is none. */
  Message findById(long id);

  /** Removes message {@code id}; false if there was none. */
  boolean remove(long id);
}
