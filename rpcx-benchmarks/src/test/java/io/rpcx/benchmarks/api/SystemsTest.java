package io.rpcx.benchmarks.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.benchmarks.model.Payloads;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every system's adapter carries every workload faithfully over loopback: what comes back equals
 * what was sent, and the CRUD calls keep the store's semantics. Raw Netty refuses the POJO calls.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SystemsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "rpcx",
        "rpcx-direct",
        "rpcx-nonblocking",
        "rpcx-meters",
        "rpcx-metrics",
        "rpcx-metrics-generic",
        "rpcx-tracing",
        "rpcx-tracing-unsampled",
        "grpc",
        "grpc-native",
        "grpc-exported",
        "grpc-on-rpcx",
        "dubbo",
        "feign",
        "http-json"
      })
  void objectSystemsEchoEveryPayloadAndKeepCrudSemantics(String name) throws Exception {
    try (Deployment d = Systems.start(name)) {
      BenchmarkClient client = d.client();

      assertEquals("0123456789abcdef", client.echo("0123456789abcdef"));
      String mib = (String) Workload.STRING_1M.payload();
      assertEquals(mib, client.echo(mib));
      byte[] bytes = Payloads.binary(Payloads.MIB);
      assertArrayEquals(bytes, client.echoBytes(bytes));

      OrderInfo order = Payloads.order(7);
      assertEquals(order, client.loadOrder(order));
      List<OrderInfo> orders = Payloads.orders(Payloads.ORDER_LIST_SIZE);
      assertEquals(orders, client.loadOrders(orders));

      Message created = client.create(Payloads.message("hello"));
      assertNotEquals(0, created.getId());
      assertEquals("hello", created.getText());
      assertTrue(client.update(created.getId(), Payloads.message("edited")));
      assertEquals("edited", client.findById(created.getId()).getText());
      assertTrue(client.remove(created.getId()));
      assertNull(client.findById(created.getId()));
      assertFalse(client.update(created.getId(), Payloads.message("gone")));
      assertFalse(client.remove(created.getId()));

      everyWorkloadRuns(d);
    }
  }

  /** Java 21+; the virtual-threads phase of run-report.sh runs it on a JDK 21+. */
  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void rpcxOnVirtualThreadsCarriesEveryWorkload() throws Exception {
    objectSystemsEchoEveryPayloadAndKeepCrudSemantics("rpcx-virtual");
  }

  @Test
  @EnabledForJreRange(max = JRE.JAVA_20)
  void rpcxOnVirtualThreadsSaysItNeedsJava21() {
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> Systems.start("rpcx-virtual"));
    assertTrue(e.getMessage().startsWith("virtualThreads() needs Java 21 or later"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"netty", "netty-flush-per-call"})
  void rawNettyEchoesStringsAndBytesAndRefusesObjects(String name) throws Exception {
    try (Deployment d = Systems.start(name)) {
      BenchmarkClient client = d.client();
      assertEquals("grüße, 世界", client.echo("grüße, 世界"));
      byte[] bytes = Payloads.binary(100 * Payloads.KIB);
      assertArrayEquals(bytes, client.echoBytes(bytes));
      UnsupportedOperationException e =
          assertThrows(
              UnsupportedOperationException.class, () -> client.loadOrder(Payloads.order(1)));
      assertEquals(
          name + ": loadOrder is not applicable (raw Netty only echoes strings and bytes)",
          e.getMessage());

      everyWorkloadRuns(d);
    }
  }

  /** A few checked calls of every workload the system supports. */
  private static void everyWorkloadRuns(Deployment d) {
    for (Workload workload : Workload.values()) {
      if (d.system().supports(workload)) {
        Workload.Call call = d.client().newCall(workload);
        for (int i = 0; i < 8; i++) {
          call.invoke();
        }
      }
    }
  }

  @Test
  void unknownSystemNamesTheRegisteredOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Systems.get("thrift"));
    assertEquals(
        "unknown system 'thrift'; registered: grpc, grpc-native, grpc-exported, grpc-on-rpcx, dubbo, feign, http-json,"
            + " netty, netty-flush-per-call, rpcx, rpcx-direct, rpcx-nonblocking, rpcx-virtual, rpcx-meters, rpcx-metrics,"
            + " rpcx-metrics-generic, rpcx-tracing, rpcx-tracing-unsampled",
        e.getMessage());
  }
}
