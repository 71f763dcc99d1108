package io.rpcx.examples.spring.client;

import io.rpcx.client.RpcxClient;
import io.rpcx.examples.api.EchoService;
import io.rpcx.examples.api.OrderInfo;
import io.rpcx.examples.api.OrderService;
import io.rpcx.examples.api.Samples;
import io.rpcx.examples.client.ExampleClient;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.stereotype.Component;

/**
 * The calls: two through services injected by their interfaces, as application code makes them,
 * then every example call of {@link ExampleClient} through the same client.
 */
@Component
public class ExampleCalls implements ApplicationRunner, ExitCodeGenerator {
  private final EchoService echo;
  private final OrderService orders;
  private final RpcxClient client;
  private int failures;

  public ExampleCalls(EchoService echo, OrderService orders, RpcxClient client) {
    this.echo = echo;
    this.orders = orders;
    this.client = client;
  }

  @Override
  public void run(ApplicationArguments arguments) {
    String greeting = echo.echo("hello from Spring Boot");
    System.out.println(
        ("hello from Spring Boot".equals(greeting) ? "OK   " : "FAIL ") + "injected echo -> " + greeting);
    OrderInfo order = Samples.order(7);
    boolean same = order.equals(orders.loadOrder(order));
    System.out.println((same ? "OK   " : "FAIL ") + "injected orders.loadOrder(" + order.getBillNumber() + ")");
    failures = (greeting.equals("hello from Spring Boot") ? 0 : 1) + (same ? 0 : 1);
    failures += new ExampleClient().run(client);
    System.out.println(failures == 0 ? "All calls succeeded." : failures + " call(s) failed.");
  }

  @Override
  public int getExitCode() {
    return failures == 0 ? 0 : 1;
  }
}
