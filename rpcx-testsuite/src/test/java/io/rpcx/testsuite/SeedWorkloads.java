package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.examples.api.Info;
import io.rpcx.examples.api.InfoService;
import io.rpcx.examples.api.Message;
import io.rpcx.examples.api.MessageService;
import io.rpcx.examples.api.OrderInfo;
import io.rpcx.examples.api.OrderService;
import io.rpcx.examples.api.Samples;
import io.rpcx.examples.client.ExampleClient;
import io.rpcx.examples.server.ChatServiceImpl;
import io.rpcx.examples.server.EchoServiceImpl;
import io.rpcx.examples.server.FileServiceImpl;
import io.rpcx.examples.server.InfoServiceImpl;
import io.rpcx.examples.server.MessageServiceImpl;
import io.rpcx.examples.server.OrderServiceImpl;
import io.rpcx.testing.RpcxExtension;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The transfers of the seed articles, through the example services, over the real stack: once
 * over TCP ({@link SeedWorkloadsTest}), once in-process ({@link SeedWorkloadsInProcessTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class SeedWorkloads {

  /** The example services, on the server of an extension of each transport. */
  static RpcxExtension exampleServices() {
    return RpcxExtension.withServices(
        new EchoServiceImpl(),
        new OrderServiceImpl(),
        new MessageServiceImpl(),
        new InfoServiceImpl(),
        new FileServiceImpl(),
        new ChatServiceImpl());
  }

  /** The extension of the transport under test. */
  abstract RpcxExtension rpcx();

  @Test
  void seed004TransfersASinglePojo() {
    OrderInfo order = Samples.order(7);
    assertEquals(order, rpcx().create(OrderService.class).loadOrder(order));
  }

  @Test
  void seed004TransfersAHundredPojos() {
    List<OrderInfo> orders = Samples.orders(100);
    assertEquals(orders, rpcx().create(OrderService.class).loadOrders(orders));
  }

  @Test
  void seed004TransfersStringsOf1KiB100KiBAnd1MiB() {
    OrderService service = rpcx().create(OrderService.class);
    for (int size : new int[] {1024, 100 * 1024, 1024 * 1024}) {
      String text = Samples.text(size);
      assertEquals(text, service.sendStr(text));
    }
  }

  @Test
  void seed002TransfersAPersonWithAndWithoutA1MiBPhoto() {
    InfoService service = rpcx().create(InfoService.class);
    Info withoutPhoto = service.request(3, false);
    assertEquals(Samples.info(3, false), withoutPhoto);
    assertNull(withoutPhoto.getPhoto());
    Info withPhoto = service.request(3, true);
    assertArrayEquals(Samples.info(3, true).getPhoto(), withPhoto.getPhoto());
    assertEquals(1024 * 1024, withPhoto.getPhoto().length);
  }

  @Test
  void seed001RunsTheMessageCrudCycle() {
    MessageService messages = rpcx().create(MessageService.class);
    Message created = messages.create("hello");
    assertTrue(created.id() > 0);
    assertEquals("hello", created.text());
    assertTrue(messages.update(created.id(), "changed"));
    assertEquals(Optional.of("changed"), messages.findById(created.id()).map(Message::text));
    assertEquals(created.createdAt(), messages.findById(created.id()).get().createdAt());
    assertTrue(messages.remove(created.id()));
    assertEquals(Optional.empty(), messages.findById(created.id()));
    assertEquals(false, messages.update(created.id(), "gone"));
  }

  @Test
  void theExampleClientSucceedsAgainstTheExampleServices() {
    assertEquals(0, new ExampleClient().run(rpcx().client()));
  }
}
