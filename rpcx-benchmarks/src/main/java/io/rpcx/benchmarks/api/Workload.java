package io.rpcx.benchmarks.api;

import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.benchmarks.model.Payloads;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * What one benchmark operation sends: the payloads of seeds 002 and 004 and the CRUD mix of seed
 * 001. Each operation is exactly one remote call, and its reply is checked cheaply (size, id,
 * flag), so a system that silently drops data fails instead of looking fast.
 *
 * <p>Payloads are built once per workload and shared read-only by all threads.
 */
public enum Workload {
  /** Echo of a 16-byte string: the paper's stress call and the per-call overhead floor. */
  ECHO_16B("echo16", false, () -> Payloads.text(Payloads.SMALL_STRING)),
  /** Echo of one {@link OrderInfo} with nested collections. */
  ORDER("order", true, () -> Payloads.order(42)),
  /** Echo of a list of 100 {@link OrderInfo}s. */
  ORDERS_100("orders", true, () -> Payloads.orders(Payloads.ORDER_LIST_SIZE)),
  /** Echo of a 1 KiB string. */
  STRING_1K("string1k", false, () -> Payloads.text(Payloads.KIB)),
  /** Echo of a 100 KiB string. */
  STRING_100K("string100k", false, () -> Payloads.text(100 * Payloads.KIB)),
  /** Echo of a 1 MiB string. */
  STRING_1M("string1m", false, () -> Payloads.text(Payloads.MIB)),
  /** Echo of 1 MiB of binary data. */
  BYTES_1M("bytes1m", false, () -> Payloads.binary(Payloads.MIB)),
  /**
   * Seed 001's message CRUD: each thread cycles create, update, findById, remove, so every
   * operation is one of the four calls and each is a quarter of the mix.
   */
  CRUD("crud", true, () -> "Hello from the CRUD workload");

  /**
   * One operation of a workload, bound to one client and one benchmark thread; made by {@link
   * BenchmarkClient#newCall}. Not thread-safe.
   */
  public interface Call {
    /** Makes one remote call and returns its checked reply. */
    Object invoke();
  }

  private final String id;
  private final boolean objects;
  private final Supplier<?> payloadFactory;
  private volatile Object payload;

  Workload(String id, boolean objects, Supplier<?> payloadFactory) {
    this.id = id;
    this.objects = objects;
    this.payloadFactory = payloadFactory;
  }

  /** The short name used on command lines and in results, such as {@code echo16}. */
  public String id() {
    return id;
  }

  /** Whether the workload carries POJOs (so needs a system with object serialization). */
  public boolean carriesObjects() {
    return objects;
  }

  /** The workload whose {@link #id()} is {@code id}. */
  public static Workload byId(String id) {
    for (Workload w : values()) {
      if (w.id.equals(id)) {
        return w;
      }
    }
    throw new IllegalArgumentException(
        "unknown workload '" + id + "' (expected one of: " + Arrays.toString(ids()) + ")");
  }

  /** All ids, in declaration order. */
  public static String[] ids() {
    return Arrays.stream(values()).map(Workload::id).toArray(String[]::new);
  }

  /** The payload sent by each call (for CRUD, the message text). Built on first use. */
  public Object payload() {
    Object p = payload;
    if (p == null) {
      // A race builds equal payloads twice at worst; the volatile write publishes either safely.
      p = payloadFactory.get();
      payload = p;
    }
    return p;
  }

  /**
   * A new operation for one thread, through {@code client}'s POJO methods: what {@link
   * BenchmarkClient#newCall} does unless a client overrides it.
   */
  public Call newCall(BenchmarkClient client) {
    Object p = payload();
    switch (this) {
      case ECHO_16B:
      case STRING_1K:
      case STRING_100K:
      case STRING_1M:
        String text = (String) p;
        return () -> expectLength(client.echo(text).length(), text.length());
      case BYTES_1M:
        byte[] bytes = (byte[]) p;
        return () -> expectLength(client.echoBytes(bytes).length, bytes.length);
      case ORDER:
        OrderInfo order = (OrderInfo) p;
        return () -> {
          OrderInfo reply = client.loadOrder(order);
          if (reply.getOrderId() != order.getOrderId()
              || reply.getItems().size() != order.getItems().size()) {
            throw new IllegalStateException("loadOrder returned a different order: " + reply);
          }
          return reply;
        };
      case ORDERS_100:
        @SuppressWarnings("unchecked")
        List<OrderInfo> orders = (List<OrderInfo>) p;
        return () -> expectLength(client.loadOrders(orders).size(), orders.size());
      case CRUD:
        return new CrudCycle(client, (String) p);
      default:
        throw new AssertionError(this);
    }
  }

  /**
   * Checks an echo's reply size: a string's length, an array's length or a list's size.
   *
   * @throws IllegalStateException if it differs from what was sent
   */
  public static Object expectLength(int actual, int expected) {
    if (actual != expected) {
      throw new IllegalStateException(
          "echo returned " + actual + " elements, expected " + expected);
    }
    return actual;
  }

  /** Create, update, findById, remove, again and again, on the message this thread created last. */
  private static final class CrudCycle implements Call {
    private final BenchmarkClient client;
    private final String text;
    private int step;
    private long id;

    CrudCycle(BenchmarkClient client, String text) {
      this.client = client;
      this.text = text;
    }

    @Override
    public Object invoke() {
      int current = step;
      step = (step + 1) & 3;
      switch (current) {
        case 0:
          Message created = client.create(Payloads.message(text));
          if (created == null || created.getId() == 0) {
            throw new IllegalStateException("create returned no id: " + created);
          }
          id = created.getId();
          return created;
        case 1:
          return expectTrue(client.update(id, Payloads.message(text + " (edited)")), "update", id);
        case 2:
          Message found = client.findById(id);
          if (found == null || found.getId() != id) {
            throw new IllegalStateException("findById(" + id + ") returned " + found);
          }
          return found;
        default:
          return expectTrue(client.remove(id), "remove", id);
      }
    }

    private static Boolean expectTrue(boolean ok, String call, long id) {
      if (!ok) {
        throw new IllegalStateException(call + "(" + id + ") returned false");
      }
      return Boolean.TRUE;
    }
  }
}
