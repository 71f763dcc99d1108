package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import io.rpcx.testsuite.evolution.v1.Customer;
import io.rpcx.testsuite.evolution.v1.Customers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client and a server with different versions of a POJO interoperate: fields are matched by
 * name, unknown fields are skipped, missing fields keep their defaults (docs/EVOLUTION.md).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EvolutionTest {

  @Test
  void anOldClientTalksToANewServer() {
    io.rpcx.testsuite.evolution.v2.Customers.Impl server = new io.rpcx.testsuite.evolution.v2.Customers.Impl();
    try (Running running = new Running(server)) {
      Customer returned =
          running.client.create(Customers.class).save(new Customer(1, "Ada", "555-0100"));
      assertEquals(1, server.received.id);
      assertEquals("Ada", server.received.name);
      assertNull(server.received.email, "the old client never had an email field");
      assertEquals(List.of("unclassified"), server.received.tags, "the new field keeps its default");
      assertEquals(1, returned.id);
      assertEquals("Ada", returned.name);
      assertNull(returned.fax, "the new server has no fax field to send back");
    }
  }

  @Test
  void aNewClientTalksToAnOldServer() {
    Customers.Impl server = new Customers.Impl();
    try (Running running = new Running(server)) {
      io.rpcx.testsuite.evolution.v2.Customer sent =
          new io.rpcx.testsuite.evolution.v2.Customer(2, "Grace", "grace@example.com");
      sent.tags = List.of("vip");
      io.rpcx.testsuite.evolution.v2.Customer returned =
          running.client.create(io.rpcx.testsuite.evolution.v2.Customers.class).save(sent);
      assertEquals(2, server.received.id);
      assertEquals("Grace", server.received.name);
      assertNull(server.received.fax);
      assertEquals("Grace", returned.name);
      assertNull(returned.email, "the old server did not know the email and could not keep it");
      assertEquals(List.of("unclassified"), returned.tags);
    }
  }

  @Test
  void anExceptionWithAFieldAddedArrivesAsEachSideKnowsIt() {
    try (Running running = new Running(new io.rpcx.testsuite.evolution.v2.Customers.Impl())) {
      io.rpcx.testsuite.evolution.v1.CustomerLockedException old =
          assertThrows(
              io.rpcx.testsuite.evolution.v1.CustomerLockedException.class,
              () -> running.client.create(Customers.class).remove(7));
      assertEquals(7, old.id());
      assertEquals("ada", old.by());
      assertEquals("customer 7 is locked by ada", old.getMessage(), "its own constructor's");
    }
    try (Running running = new Running(new Customers.Impl())) {
      io.rpcx.testsuite.evolution.v2.CustomerLockedException newer =
          assertThrows(
              io.rpcx.testsuite.evolution.v2.CustomerLockedException.class,
              () -> running.client.create(io.rpcx.testsuite.evolution.v2.Customers.class).remove(8));
      assertEquals(8, newer.id());
      assertEquals("ada", newer.by());
      assertNull(newer.until(), "the old server's exception has no such field");
    }
  }

  /** A server publishing one implementation and a client pointed at it. */
  private static final class Running implements AutoCloseable {
    final RpcxServer server;
    final RpcxClient client;

    Running(Object implementation) {
      server = RpcxServer.builder().bindAddress("127.0.0.1").service(implementation).build().start();
      client = RpcxClient.builder().target("127.0.0.1", server.port()).build();
    }

    @Override
    public void close() {
      client.close();
      server.stop(Duration.ofSeconds(2));
    }
  }
}
