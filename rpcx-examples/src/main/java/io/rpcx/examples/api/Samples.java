package io.rpcx.examples.api;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Deterministic sample data for the seed workloads. */
public final class Samples {
  private Samples() {}

  /** An order with three items, tags and attributes; {@code n} varies the content. */
  public static OrderInfo order(int n) {
    OrderInfo order = new OrderInfo();
    order.setBillNumber(String.format("BN-2024-%06d", n));
    order.setOrderId(1_000_000_000L + n);
    order.setCustomer("customer-" + (n % 97));
    order.setCreatedAt(Instant.ofEpochSecond(1_700_000_000L + n, 123_000_000));
    order.setStatus(OrderStatus.values()[n % OrderStatus.values().length]);
    order.setPaid(n % 2 == 0);
    List<OrderItem> items = new ArrayList<>();
    BigDecimal total = BigDecimal.ZERO;
    for (int i = 0; i < 3; i++) {
      BigDecimal price = new BigDecimal(String.format("%d.%02d", 10 + i * 5 + n % 7, (n * 13 + i) % 100));
      items.add(new OrderItem("SKU-" + (n * 3 + i), "Product " + (char) ('A' + i), i + 1, price));
      total = total.add(price.multiply(BigDecimal.valueOf(i + 1L)));
    }
    order.setItems(items);
    order.setTotalAmount(total);
    order.setTags(new LinkedHashSet<>(List.of("priority", "region-" + (n % 5))));
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("channel", n % 3 == 0 ? "web" : "mobile");
    attributes.put("warehouse", "WH-" + (n % 4));
    order.setAttributes(attributes);
    order.setRemark("deliver between 9:00 and 17:00");
    return order;
  }

  /** {@code count} different orders. */
  public static List<OrderInfo> orders(int count) {
    List<OrderInfo> orders = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      orders.add(order(i));
    }
    return orders;
  }

  /** A string of exactly {@code length} ASCII characters. */
  public static String text(int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append((char) ('a' + i % 26));
    }
    return text.toString();
  }

  /** The person of seed 002, with a deterministic 1 MiB photo when {@code photo} is set. */
  public static Info info(int id, boolean photo) {
    byte[] image = null;
    if (photo) {
      image = new byte[1024 * 1024];
      new Random(id).nextBytes(image);
    }
    return new Info(id, "Ada", "Lovelace", 36, "ada" + id + "@example.com", "+44 20 7946 0000",
        true, 51.5074f, -0.1278f, image);
  }
}
