package io.rpcx.testsuite.docs;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.spring.boot.EnableRpcxClients;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;

/**
 * The Java snippets of docs/SPRING_BOOT.md, each line as the doc has it, in code that compiles
 * ({@link DocSnippetsTest}). Never run: the doc's addresses are examples.
 */
class SpringBootSnippets {
  /** The value and the checked exception the snippets use. */
  public record OrderInfo(long id, String item) {}

  public static final class OrderNotFoundException extends Exception {
    private static final long serialVersionUID = 1L;

    public OrderNotFoundException(String message) {
      super(message);
    }
  }

  // "A service and its client, step by step"

  // The interface module: io.rpcx:rpcx-annotations only.
  @RPCXClient(name = "orders")
  public interface OrderService {
    OrderInfo find(long id) throws OrderNotFoundException;
  }

  // The server application.
  @SpringBootApplication
  public class OrdersApplication {
    public static void main(String[] args) {
      SpringApplication.run(OrdersApplication.class, args);
    }
  }

  @Service
  @RPCXServer(name = "orders")
  public class OrderServiceImpl implements OrderService {
    @Override
    public OrderInfo find(long id) throws OrderNotFoundException {
      throw new OrderNotFoundException("no order " + id);
    }
  }

  // The client application.
  @SpringBootApplication
  @EnableRpcxClients(basePackageClasses = OrderService.class)
  public class ShopApplication {}

  @Service
  public class Checkout {
    private final OrderService orders;

    public Checkout(OrderService orders) {
      this.orders = orders;
    }

    public OrderInfo order(long id) throws OrderNotFoundException {
      return orders.find(id); // a remote call
    }
  }
}
