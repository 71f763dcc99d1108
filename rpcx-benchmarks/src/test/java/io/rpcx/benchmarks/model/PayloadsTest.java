package io.rpcx.benchmarks.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadsTest {

  @Test
  void payloadsAreDeterministicAndHaveTheirNominalSize() {
    assertEquals(Payloads.order(3), Payloads.order(3));
    assertNotEquals(Payloads.order(3), Payloads.order(4));
    assertEquals(Payloads.text(Payloads.KIB), Payloads.text(Payloads.KIB));
    assertArrayEquals(Payloads.binary(4096), Payloads.binary(4096));

    assertEquals(16, Payloads.text(Payloads.SMALL_STRING).getBytes(StandardCharsets.UTF_8).length);
    assertEquals(Payloads.MIB, Payloads.text(Payloads.MIB).getBytes(StandardCharsets.UTF_8).length);
    assertEquals(Payloads.MIB, Payloads.binary(Payloads.MIB).length);
    assertEquals(100, Payloads.orders(Payloads.ORDER_LIST_SIZE).size());
  }

  @Test
  void anOrderHasNestedCollections() {
    OrderInfo order = Payloads.order(42);
    assertEquals("BN-2024-000042", order.getBillNumber());
    assertEquals(5, order.getItems().size());
    assertEquals(3, order.getTags().size());
    assertEquals(4, order.getAttributes().size());
  }

  @Test
  void theStoreHandsOutIdsAndKeepsCrudSemantics() {
    MessageStore store = new MessageStore();
    Message created = store.create(Payloads.message("a"));
    assertEquals(1, created.getId());
    assertEquals(true, store.update(1, Payloads.message("b")));
    assertEquals("b", store.findById(1).getText());
    assertEquals(true, store.remove(1));
    assertEquals(null, store.findById(1));
    assertEquals(false, store.update(1, Payloads.message("c")));
    assertEquals(0, store.size());
  }
}
