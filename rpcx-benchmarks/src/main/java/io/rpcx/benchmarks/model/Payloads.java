package io.rpcx.benchmarks.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the deterministic payloads of the workloads: orders (seed 004), ASCII strings of a given
 * size (seeds 002 and 004) and binary blobs (seed 002). The same arguments always give equal
 * values, so every system is measured on exactly the same data.
 *
 * <p>Stateless and thread-safe. Each call builds a new value.
 */
public final class Payloads {

  /** Length of the small echo string: 16 ASCII characters, 16 bytes in UTF-8. */
  public static final int SMALL_STRING = 16;

  /** One kibibyte. */
  public static final int KIB = 1024;

  /** One mebibyte. */
  public static final int MIB = 1024 * 1024;

  /** Number of orders in the "list of orders" workload. */
  public static final int ORDER_LIST_SIZE = 100;

  private static final String[] PRODUCTS = {
    "USB-C cable 2 m", "Mechanical keyboard", "27-inch monitor", "Laptop stand",
    "Noise-cancelling headphones", "Webcam 1080p", "Desk lamp", "Ergonomic mouse"
  };
  private static final String[] CITIES = {"Berlin", "Lyon", "Porto", "Krakow", "Utrecht"};
  private static final OrderStatus[] STATUSES = OrderStatus.values();
  private static final long EPOCH_2024 = 1_704_067_200_000L;
  private static final String ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-";

  private Payloads() {}

  /**
   * Order number {@code seq}: 5 items, 3 tags and 4 attributes, about 600 bytes in protobuf and 900
   * in JSON.
   */
  public static OrderInfo order(int seq) {
    OrderInfo order = new OrderInfo();
    order.setBillNumber(String.format("BN-2024-%06d", seq));
    order.setOrderId(1_000_000L + seq);
    order.setCustomer("customer-" + (seq % 977) + "@shop.example");
    order.setCreatedAtMillis(EPOCH_2024 + seq * 60_000L);
    order.setStatus(STATUSES[seq % STATUSES.length]);
    order.setPaid(seq % 3 != 0);

    List<OrderItem> items = new ArrayList<>();
    double amount = 0;
    for (int i = 0; i < 5; i++) {
      int product = (seq + i) % PRODUCTS.length;
      int quantity = 1 + (seq + i) % 4;
      double unitPrice = 9.99 + product * 12.5;
      items.add(
          new OrderItem(
              String.format("SKU-%05d-%d", product * 37, i),
              PRODUCTS[product],
              quantity,
              unitPrice));
      amount += quantity * unitPrice;
    }
    order.setItems(items);
    order.setAmount(Math.round(amount * 100) / 100.0);

    List<String> tags = new ArrayList<>();
    tags.add(seq % 2 == 0 ? "express" : "standard");
    tags.add("campaign-" + (seq % 12));
    tags.add(order.isPaid() ? "prepaid" : "invoice");
    order.setTags(tags);

    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("channel", seq % 4 == 0 ? "mobile" : "web");
    attributes.put("currency", "EUR");
    attributes.put("warehouse", CITIES[seq % CITIES.length]);
    attributes.put("note", "Leave the parcel with the neighbour if nobody is at home.");
    order.setAttributes(attributes);
    return order;
  }

  /** Orders {@code 0 .. count-1}, as built by {@link #order(int)}, in an unmodifiable list. */
  public static List<OrderInfo> orders(int count) {
    List<OrderInfo> orders = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      orders.add(order(i));
    }
    return Collections.unmodifiableList(orders);
  }

  /**
   * A string of {@code length} printable ASCII characters (so {@code length} bytes in UTF-8, with
   * no long runs a transport could compress).
   */
  public static String text(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
    }
    StringBuilder sb = new StringBuilder(length);
    long state = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < length; i++) {
      state = xorshift(state);
      sb.append(ALPHABET.charAt((int) Long.remainderUnsigned(state, ALPHABET.length())));
    }
    return sb.toString();
  }

  /** {@code length} pseudo-random bytes, the same on every call. */
  public static byte[] binary(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
    }
    byte[] bytes = new byte[length];
    long state = 0x2545F4914F6CDD1DL;
    for (int i = 0; i < length; i++) {
      state = xorshift(state);
      bytes[i] = (byte) state;
    }
    return bytes;
  }

  /** A new, not yet stored message of the CRUD workload. */
  /** The person of seed 002, with a 1 MiB photo or without one. */
  public static Info info(boolean withPhoto) {
    return new Info(
        42, "Ada", "Lovelace", 36, "ada.lovelace@example.com", "+44 20 7946 0958", true,
        51.5074f, -0.1278f, withPhoto ? binary(MIB) : null);
  }

  public static Message message(String text) {
    return new Message(0, text, EPOCH_2024);
  }

  private static long xorshift(long x) {
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    return x;
  }
}
