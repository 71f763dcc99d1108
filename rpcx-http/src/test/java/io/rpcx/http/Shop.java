package io.rpcx.http;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.RpcxContext;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/** The service the HTTP side's tests call: every value shape, as a class and as a record. */
@RPCXClient(name = "shop")
public interface Shop {

  /** A record. */
  record Item(String sku, int quantity, BigDecimal price, Size size, List<String> tags) {}

  enum Size {
    SMALL,
    LARGE
  }

  /** A class, with a record inside. */
  final class Basket {
    private long id;
    private String owner;
    private Instant createdAt;
    private boolean paid;
    private List<Item> items = new ArrayList<>();
    private Map<String, Integer> counts = new TreeMap<>();

    public Basket() {}

    public Basket(long id, String owner, Instant createdAt, boolean paid, List<Item> items) {
      this.id = id;
      this.owner = owner;
      this.createdAt = createdAt;
      this.paid = paid;
      this.items = items;
    }

    public long getId() {
      return id;
    }

    public void setId(long id) {
      this.id = id;
    }

    public String getOwner() {
      return owner;
    }

    public void setOwner(String owner) {
      this.owner = owner;
    }

    public Instant getCreatedAt() {
      return createdAt;
    }

    public void setCreatedAt(Instant createdAt) {
      this.createdAt = createdAt;
    }

    public boolean isPaid() {
      return paid;
    }

    public void setPaid(boolean paid) {
      this.paid = paid;
    }

    public List<Item> getItems() {
      return items;
    }

    public void setItems(List<Item> items) {
      this.items = items;
    }

    public Map<String, Integer> getCounts() {
      return counts;
    }

    public void setCounts(Map<String, Integer> counts) {
      this.counts = counts;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Basket that
          && id == that.id
          && paid == that.paid
          && Objects.equals(owner, that.owner)
          && Objects.equals(createdAt, that.createdAt)
          && Objects.equals(items, that.items)
          && Objects.equals(counts, that.counts);
    }

    @Override
    public int hashCode() {
      return Objects.hash(id, owner, createdAt, paid, items, counts);
    }
  }

  /** Thrown by {@link #find} for a negative id: declared, so the client gets it as itself. */
  class ItemMissingException extends Exception {
    private static final long serialVersionUID = 1L;

    public ItemMissingException(String message) {
      super(message);
    }
  }

  Item find(long id) throws ItemMissingException;

  Item item(Item item);

  Basket basket(Basket basket);

  List<Item> search(String text, int limit);

  /** Zero, false, empty and null apart: what it got, as text. */
  String describe(int number, boolean flag, String text, List<String> list);

  void nothing();

  /** The call's metadata and deadline, as the implementation sees them. */
  Map<String, String> context();

  /** Waits up to {@code millis} (or until released), then answers {@code "done"}. */
  String slow(int millis);

  /** A server stream of {@code count} items, made only as they are requested. */
  Flow.Publisher<Item> items(int count);

  /** A server stream that fails after {@code count} elements. */
  Stream<Integer> failing(int count);

  /** A client stream: HTTP cannot call it. */
  int sum(Flow.Publisher<Integer> numbers);

  /** The implementation; {@link #requested} counts the elements its streams were asked for. */
  @RPCXServer(name = "shop")
  final class Impl implements Shop {
    final AtomicLong requested = new AtomicLong();
    final CountDownLatch release = new CountDownLatch(1);

    static Item sample(int n) {
      return new Item("SKU-" + n, n, new BigDecimal("2.50"), Size.LARGE, List.of("t" + n));
    }

    @Override
    public Item find(long id) throws ItemMissingException {
      if (id < 0) {
        throw new ItemMissingException("no item " + id);
      }
      return sample((int) id);
    }

    @Override
    public Item item(Item item) {
      return item;
    }

    @Override
    public Basket basket(Basket basket) {
      return basket;
    }

    @Override
    public List<Item> search(String text, int limit) {
      return IntStream.range(0, limit).mapToObj(Impl::sample).toList();
    }

    @Override
    public String describe(int number, boolean flag, String text, List<String> list) {
      return number + " " + flag + " " + (text == null ? "null" : "'" + text + "'") + " " + list;
    }

    @Override
    public void nothing() {}

    @Override
    public Map<String, String> context() {
      RpcxContext context = RpcxContext.current();
      Map<String, String> seen = new TreeMap<>(context.metadata());
      context.timeRemaining().ifPresent(left -> seen.put("deadline", "set"));
      return seen;
    }

    @Override
    public String slow(int millis) {
      try {
        release.await(millis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return "done";
    }

    @Override
    public Flow.Publisher<Item> items(int count) {
      return subscriber ->
          subscriber.onSubscribe(
              new Flow.Subscription() {
                private final AtomicLong demand = new AtomicLong();
                private volatile boolean cancelled;
                private int next;

                @Override
                public void request(long n) {
                  requested.addAndGet(n);
                  if (demand.getAndAdd(n) != 0) {
                    return;
                  }
                  do {
                    long wanted = demand.get();
                    long sent = 0;
                    while (sent < wanted && next < count && !cancelled) {
                      subscriber.onNext(sample(next++));
                      sent++;
                    }
                    if (next == count && !cancelled) {
                      cancelled = true;
                      subscriber.onComplete();
                      return;
                    }
                    if (cancelled || demand.addAndGet(-sent) == 0) {
                      return;
                    }
                  } while (true);
                }

                @Override
                public void cancel() {
                  cancelled = true;
                }
              });
    }

    @Override
    public Stream<Integer> failing(int count) {
      return Stream.iterate(0, n -> n + 1)
          .map(
              n -> {
                if (n == count) {
                  throw new IllegalStateException("broke after " + count);
                }
                return n;
              });
    }

    @Override
    public int sum(Flow.Publisher<Integer> numbers) {
      return 0;
    }
  }
}
