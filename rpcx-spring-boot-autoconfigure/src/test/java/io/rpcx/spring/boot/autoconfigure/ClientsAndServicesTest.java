package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.NotFoundException;
import io.rpcx.server.RpcxServer;
import io.rpcx.spring.boot.LocalRpcxServerPort;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import io.rpcx.spring.boot.autoconfigure.greeter.GreetingCaller;
import io.rpcx.spring.boot.autoconfigure.greeter.Person;
import io.rpcx.spring.boot.autoconfigure.greeter.ServerApp;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A server application on a free port publishing a bean, and a client application in a context of
 * its own calling it through a bean injected by type.
 */
@SpringBootTest(classes = ServerApp.class, properties = "rpcx.server.port=0")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientsAndServicesTest {
  @LocalRpcxServerPort int port;

  @Autowired RpcxServer server;

  @Test
  void theServerPublishesTheServiceBeanOnTheActualPort() {
    assertTrue(port > 0, "local.rpcx.server.port is the port it listens on");
    assertEquals(port, server.port());
    assertEquals(List.of("greeter"), server.services());
    assertTrue(server.isRunning(), "started with the context");
  }

  @Test
  void aClientContextCallsItThroughABeanInjectedByType() {
    try (ConfigurableApplicationContext client = Apps.client(port)) {
      GreetingCaller caller = client.getBean(GreetingCaller.class);
      assertEquals("Hello, Ada!", caller.welcome("Ada"), "the service's own dependency said Hello");
      assertEquals(
          "Hello, Dr Ada",
          caller.greeter().greetFully(new Person("Ada", List.of("Dr"))).getText(),
          "records and POJOs both ways");
      assertEquals("Hello, Bo", caller.greeter().greetAsync("Bo").join());
      assertSame(
          client.getBean(Greeter.class), caller.greeter(), "one bean per interface, a singleton");
    }
  }

  @Test
  void theClientIsOneSharedBeanClosedWithItsContext() {
    RpcxClient rpcxClient;
    try (ConfigurableApplicationContext client = Apps.client(port)) {
      rpcxClient = client.getBean(RpcxClient.class);
      assertEquals(1, client.getBeansOfType(RpcxClient.class).size());
      client.getBean(Greeter.class).greet("Ada");
    }
    try {
      rpcxClient.create(Greeter.class);
    } catch (IllegalStateException expected) {
      assertEquals("the client is closed", expected.getMessage());
      return;
    }
    throw new AssertionError("the client was not closed with its context");
  }

  /** The greeter as a client that also expects the bean's Spring interface to be published. */
  @RPCXClient(name = "greeter")
  interface GreeterWithSpringsInterface {
    void afterPropertiesSet();
  }

  @Test
  void springsOwnInterfacesOfTheBeanAreNotPublished() {
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", port).build()) {
      NotFoundException notFound =
          assertThrows(
              NotFoundException.class,
              () -> client.create(GreeterWithSpringsInterface.class).afterPropertiesSet());
      assertEquals(
          "greeter/afterPropertiesSet failed on 127.0.0.1:" + port
              + ": service 'greeter' has no method 'afterPropertiesSet'",
          notFound.getMessage());
    }
  }
}
