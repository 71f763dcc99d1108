package io.rpcx.examples.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.examples.api.OrderInfo;
import io.rpcx.examples.api.OrderNotFoundException;
import io.rpcx.examples.api.OrderService;
import io.rpcx.examples.api.Samples;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

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

  /**
   * Orders made as they are requested: never more than the subscriber (RPCX, passing on the
   * client's credit) asked for. With Reactor or RxJava this is {@code
   * FlowAdapters.toFlowPublisher(Flux.range(0, count).map(Samples::order))}.
   */
  @Override
  public Flow.Publisher<OrderInfo> streamOrders(int count) {
    return subscriber ->
        subscriber.onSubscribe(
            new Flow.Subscription() {
              private final AtomicLong demand = new AtomicLong();
              private volatile boolean cancelled;
              private int next;

              @Override
              public void request(long n) {
                if (n <= 0) {
                  cancelled = true;
                  subscriber.onError(new IllegalArgumentException("request(" + n + ")"));
                  return;
                }
                if (demand.getAndAdd(n) != 0) {
                  return; // the thread already emitting takes it
                }
                do {
                  long wanted = demand.get();
                  long sent = 0;
                  while (sent < wanted && next < count && !cancelled) {
                    subscriber.onNext(Samples.order(next++));
                    sent++;
                  }
                  if (next == count && !cancelled) {
                    cancelled = true;
                    subscriber.onComplete();
                    return;
                  }
                  if (cancelled || demand.addAndGet(-sent) == 0) {
                    return;
                  }
                } while (true);
              }

              @Override
              public void cancel() {
                cancelled = true;
              }
            });
  }
}
