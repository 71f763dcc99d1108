package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.NotFoundException;
import io.rpcx.server.RpcxServer;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An implementation published with the service interfaces and the class it is described by given
 * explicitly: for implementations behind a proxy (Spring AOP, a decorator), which carry neither
 * the annotations nor only the service's interfaces, and for classes that implement other
 * interfaces too.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProxiedImplementationTest {

  /** The service as clients see it. */
  @RPCXClient(name = "greeter")
  interface Greeter {
    String greet(String name);

    /** Published as "hi" by the implementation's own annotation. */
    String shortGreeting(String name);
  }

  /** Not part of the service: a framework's callback, say. */
  interface Lifecycle {
    void started();
  }

  /** The greeter as a client that expects {@link Lifecycle#started} to be published too. */
  @RPCXClient(name = "greeter")
  interface GreeterAndLifecycle {
    void started();
  }

  /** The implementation: its own @Method name, and an interface that is not the service's. */
  @RPCXServer(name = "greeter")
  static final class GreeterImpl implements Greeter, Lifecycle {
    @Override
    public String greet(String name) {
      return "Hello, " + name;
    }

    @Override
    @Method("hi")
    @Idempotent
    public String shortGreeting(String name) {
      return "Hi, " + name;
    }

    @Override
    public void started() {}
  }

  /** The client view of the published name {@code hi}. */
  @RPCXClient(name = "greeter")
  interface ShortGreeter {
    String hi(String name);
  }

  @Test
  void aDecoratingProxyIsPublishedDescribedByTheClassBehindIt() {
    GreeterImpl target = new GreeterImpl();
    AtomicInteger decorated = new AtomicInteger();
    InvocationHandler counting =
        (proxy, method, args) -> {
          decorated.incrementAndGet();
          try {
            return method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    Object proxy =
        Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {Greeter.class, Lifecycle.class}, counting);
    try (RpcxServer server =
            RpcxServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .service("greeter", proxy, GreeterImpl.class, Greeter.class)
                .build()
                .start();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      assertEquals("Hello, Ada", client.create(Greeter.class).greet("Ada"));
      assertEquals("Hi, Bo", client.create(ShortGreeter.class).hi("Bo"), "@Method of GreeterImpl");
      assertEquals(2, decorated.get(), "both calls went through the proxy");
      NotFoundException notPublished =
          assertThrows(
              NotFoundException.class, () -> client.create(GreeterAndLifecycle.class).started());
      assertEquals(
          "greeter/started failed on 127.0.0.1:" + server.port()
              + ": service 'greeter' has no method 'started'",
          notPublished.getMessage());
    }
  }

  @Test
  void theInterfacesMustBeImplemented() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RpcxServer.builder()
                    .service("greeter", new Object(), GreeterImpl.class, Greeter.class));
    assertEquals(
        "the implementation of 'greeter' (java.lang.Object) does not implement"
            + " io.rpcx.testsuite.ProxiedImplementationTest$Greeter",
        refused.getMessage());
    IllegalArgumentException none =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxServer.builder().service("greeter", new GreeterImpl(), GreeterImpl.class));
    assertEquals(
        "serviceInterfaces of 'greeter': none given (expected: at least one)", none.getMessage());
    IllegalArgumentException notAnInterface =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RpcxServer.builder()
                    .port(0)
                    .service("greeter", new GreeterImpl(), Object.class, Greeter.class)
                    .build());
    assertEquals(
        "java.lang.Object is published as service 'greeter' with the methods of"
            + " io.rpcx.testsuite.ProxiedImplementationTest$Greeter but does not implement it",
        notAnInterface.getMessage());
  }
}
